import { DATABASES_GROUP_VERSION } from '@internal/plugin-databases-common';
import { isJsonObject, union, type FieldSet, type JsonObject } from './fieldPaths';
import { fromFieldsV1, toFieldsV1 } from './fieldsV1';

export type ManagedFieldsOperation = 'Apply' | 'Update';

/** `metadata.managedFields[]` as kube-apiserver serves it (meta/v1 ManagedFieldsEntry). */
export interface ManagedFieldsEntry {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: JsonObject;
}

/** One manager's fields: an entry decoded. */
export interface Manager {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  time?: string;
  fields: FieldSet;
}

/** kube-apiserver's cap on Update entries; older ones are merged into one (capmanagers.go). */
const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const sameManager = (a: Pick<Manager, 'manager' | 'operation'>, b: Pick<Manager, 'manager' | 'operation'>) =>
  a.manager === b.manager && a.operation === b.operation;

/** A time as managedFields carry it: RFC 3339 in whole seconds, UTC. */
export const managedTime = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The managers of a `managedFields` value, or undefined when it is not a valid one (kube-apiserver
 * then keeps the live object's: a client that does not understand managedFields cannot wipe them).
 */
export function decodeManagedFields(value: unknown): Manager[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Manager[] = [];
  for (const entry of value) {
    if (!isJsonObject(entry)) return undefined;
    const { manager = '', operation, apiVersion = DATABASES_GROUP_VERSION, time, fieldsType, fieldsV1 } = entry;
    if (typeof manager !== 'string' || (operation !== 'Apply' && operation !== 'Update')) return undefined;
    if (typeof apiVersion !== 'string' || fieldsType !== 'FieldsV1') return undefined;
    if (time !== undefined && (typeof time !== 'string' || !RFC3339.test(time))) return undefined;
    const fields = fromFieldsV1(fieldsV1 ?? {});
    if (!fields) return undefined;
    const decoded: Manager = { manager, operation, apiVersion, fields, ...(time ? { time: managedTime(Date.parse(time)) } : {}) };
    // one entry per manager and operation, as kube-apiserver keeps them
    const same = out.find(m => sameManager(m, decoded));
    if (same) same.fields = union(same.fields, fields);
    else out.push(decoded);
  }
  return out;
}

/** `[{}]`: the documented way to clear managedFields (an empty list leaves them as they are). */
export const isResetManagedFields = (value: unknown) =>
  Array.isArray(value) && value.length === 1 && isJsonObject(value[0]) && Object.keys(value[0]).length === 0;

/** Apply entries first, then oldest first, then by name: kube-apiserver's order. */
function compareManagers(a: Manager, b: Manager): number {
  if (a.operation !== b.operation) return a.operation === 'Apply' ? -1 : 1;
  const at = a.time ?? '';
  const bt = b.time ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  if (a.manager === b.manager) return 0;
  return a.manager < b.manager ? -1 : 1;
}

/** Managers without fields dropped and the oldest Update entries merged past the cap. */
export function normalizeManagers(managers: Manager[]): Manager[] {
  const kept = managers.filter(m => m.fields.size > 0).sort(compareManagers);
  const updates = kept.filter(m => m.operation === 'Update');
  if (updates.length <= MAX_UPDATE_MANAGERS) return kept;
  const merged = updates.slice(0, updates.length - MAX_UPDATE_MANAGERS + 1);
  const bucket: Manager = {
    manager: ANCIENT_CHANGES,
    operation: 'Update',
    apiVersion: DATABASES_GROUP_VERSION,
    fields: merged.reduce((s, m) => union(s, m.fields), new Set<string>()),
    ...(merged[merged.length - 1].time ? { time: merged[merged.length - 1].time } : {}),
  };
  return [...kept.filter(m => !merged.includes(m)), bucket].sort(compareManagers);
}

/** The managers as served in `metadata.managedFields` (and recorded, byte for byte the same). */
export function encodeManagedFields(managers: Manager[]): ManagedFieldsEntry[] {
  return normalizeManagers(managers).map(m => ({
    manager: m.manager,
    operation: m.operation,
    apiVersion: m.apiVersion,
    ...(m.time ? { time: m.time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(m.fields),
  }));
}
