import type { DatabaseBackup, RestoreFrom } from '@internal/plugin-databases-common';
import type { AdapterWriteSide, KubeObject, OperatorAdapter, RestoreSource } from '../adapters/types';
import { type FieldCause, forbidden, invalid, required, typeInvalid } from './FieldCause';

/** What `spec.restoreFrom` may name, read from the apiserver's caches (never per request). */
export interface RestoreLookups {
  namespace: string;
  now: Date;
  /** A DatabaseBackup of the namespace and its operator object. */
  backup(name: string): { backup: DatabaseBackup; object: KubeObject } | undefined;
  /** An instance of the namespace: its adapter and operator object. */
  instance(name: string): { adapter: OperatorAdapter; object: KubeObject } | undefined;
}

/** The outcome: every bad field, or the source to restore from (none when nothing is asked). */
export type ResolvedRestore = { causes: FieldCause[] } | { causes: []; source?: RestoreSource };

const FIELD = 'spec.restoreFrom';
/** RFC 3339 date-time (Kubernetes' metav1.Time accepts an offset and fractions). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const notFound = (field: string, name: string, what: string, namespace: string): FieldCause => ({
  reason: 'FieldValueNotFound',
  field,
  message: `Not found: ${JSON.stringify(name)}: no ${what} of that name in namespace ${JSON.stringify(namespace)}`,
});

/** The three fields as strings, or the causes of those that are not. */
function fieldsOf(value: Record<string, unknown>): { causes: FieldCause[]; from: RestoreFrom } {
  const causes: FieldCause[] = [];
  const from: RestoreFrom = {};
  for (const key of ['backup', 'instance', 'pointInTime'] as const) {
    const v = value[key];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string') causes.push(typeInvalid(`${FIELD}.${key}`, v, 'string'));
    else from[key] = v;
  }
  return { causes, from };
}

function fromBackup(name: string, engine: string, lookups: RestoreLookups): { causes: FieldCause[] } | { source: RestoreSource } {
  const field = `${FIELD}.backup`;
  const found = lookups.backup(name);
  if (!found) return { causes: [notFound(field, name, 'DatabaseBackup', lookups.namespace)] };
  const status = found.backup.status;
  if (status?.engine !== engine)
    return { causes: [invalid(field, name, `is a backup of a ${status?.engine ?? 'unknown'} instance: it cannot be restored into a ${engine} instance`)] };
  if (status.phase !== 'Succeeded')
    return { causes: [invalid(field, name, `is ${status.phase}${status.message ? ` (${status.message})` : ''}: only a Succeeded backup can be restored`)] };
  if (!status.restorable) return { causes: [invalid(field, name, `is not restorable: ${status.source.operator} cannot restore a new instance from it`)] };
  const instanceName = found.backup.spec.instanceRef.name;
  const backedUp = instanceName ? lookups.instance(instanceName) : undefined;
  return { source: { backup: found.backup, backupObject: found.object, ...(backedUp?.adapter.engine === engine && { backedUp: backedUp.object }) } };
}

function fromPointInTime(from: RestoreFrom, adapter: OperatorAdapter, write: AdapterWriteSide, lookups: RestoreLookups): { causes: FieldCause[] } | { source: RestoreSource } {
  if (!adapter.backups?.capabilities.pointInTime) {
    return { causes: [forbidden(`${FIELD}.pointInTime`, write.restore?.pointInTimeRefusal ?? `${adapter.operator} cannot restore to a point in time; restore from a DatabaseBackup (spec.restoreFrom.backup)`)] };
  }
  const causes: FieldCause[] = [];
  const at = from.pointInTime;
  if (at === undefined) causes.push(required(`${FIELD}.pointInTime`, 'the RFC 3339 time to recover to'));
  else if (!RFC3339.test(at) || Number.isNaN(Date.parse(at))) causes.push(invalid(`${FIELD}.pointInTime`, at, 'must be an RFC 3339 time, e.g. 2026-12-01T02:00:00Z'));
  else if (Date.parse(at) > lookups.now.getTime()) causes.push(invalid(`${FIELD}.pointInTime`, at, `is in the future: nothing is archived after now (${lookups.now.toISOString().replace(/\.\d{3}Z$/, 'Z')})`));
  let source: KubeObject | undefined;
  if (from.instance === undefined) causes.push(required(`${FIELD}.instance`, 'the instance whose backups and archive are replayed'));
  else {
    const found = lookups.instance(from.instance);
    if (!found) causes.push(notFound(`${FIELD}.instance`, from.instance, 'DatabaseInstance', lookups.namespace));
    else if (found.adapter.engine !== adapter.engine)
      causes.push(invalid(`${FIELD}.instance`, from.instance, `is a ${found.adapter.engine} instance: it cannot be restored into a ${adapter.engine} instance`));
    else source = found.object;
  }
  if (causes.length || !source || at === undefined) return { causes };
  return { source: { instance: source, pointInTime: at } };
}

/**
 * `spec.restoreFrom` of a create, checked as far as it is the same for every engine (the
 * engine restores at all; a backup that exists, Succeeded, restorable and of this engine; a
 * point in time only where the engine offers one, well-formed, not in the future, from an
 * existing instance of this engine), then by the operator's own rules (`restore.validate`).
 */
export function resolveRestore(value: unknown, adapter: OperatorAdapter, write: AdapterWriteSide, lookups: RestoreLookups): ResolvedRestore {
  if (value === undefined || value === null) return { causes: [] };
  if (typeof value !== 'object' || Array.isArray(value)) return { causes: [typeInvalid(FIELD, value, 'object')] };
  if (!write.restore || !adapter.backups?.capabilities.restore) {
    return {
      causes: [
        forbidden(FIELD, `${adapter.engine} instances cannot be restored from a backup: ${adapter.operator} has no backup objects (DatabaseEngine ${adapter.engine} spec.backup says what each engine can do)`),
      ],
    };
  }
  const { causes, from } = fieldsOf(value as Record<string, unknown>);
  if (causes.length) return { causes };
  const timed = from.instance !== undefined || from.pointInTime !== undefined;
  if (from.backup !== undefined && timed) return { causes: [forbidden(FIELD, 'give either backup, or instance and pointInTime, not both')] };
  if (from.backup === undefined && !timed) return { causes: [required(FIELD, 'backup, or instance and pointInTime')] };
  const resolved = from.backup !== undefined ? fromBackup(from.backup, adapter.engine, lookups) : fromPointInTime(from, adapter, write, lookups);
  if (!('source' in resolved)) return resolved;
  const refused = write.restore.validate(resolved.source);
  return refused.length ? { causes: refused } : { causes: [], source: resolved.source };
}
