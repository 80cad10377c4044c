import { ANNOTATION_MANAGED_FIELDS, type ObjectMeta } from '@internal/plugin-databases-common';
import type { KubeObject } from '../adapters/types';
import { decodeManagedFields, encodeManagedFields, isResetManagedFields, type Manager } from './managers';

/**
 * Where the managed fields live: an annotation of the operator object (see
 * ANNOTATION_MANAGED_FIELDS), read back into `metadata.managedFields` by the projection.
 */

/**
 * `metadata.managedFields` of a served instance: the record's JSON, parsed only when the
 * instance is encoded (JSON.stringify calls toJSON). Every instance a store holds keeps one
 * string instead of its entries as objects, which cost three times as much (`yarn bench`,
 * apply group).
 */
class RecordedManagedFields {
  constructor(private readonly json: string) {}

  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** The entries of a `managedFields` value, whether a client's array or a served record. */
const entriesOf = (value: unknown): unknown => (value instanceof RecordedManagedFields ? value.toJSON() : value);

/** The managers of an instance as served (its own record: trusted, empty when it has none). */
export const servedManagers = (metadata: ObjectMeta | undefined): Manager[] =>
  decodeManagedFields(entriesOf(metadata?.managedFields) ?? []) ?? [];

/**
 * The managers an update starts from, as kube-apiserver decides them: `[{}]` clears them, a
 * valid non-empty list the client sent replaces them (how `kubectl apply --server-side` hands
 * client-side apply's fields to itself), anything else (absent, empty, invalid) keeps the
 * served ones, so a client that does not know managedFields cannot lose them.
 */
export function requestManagers(sent: unknown, served: ObjectMeta | undefined): Manager[] {
  if (isResetManagedFields(sent)) return [];
  const decoded = Array.isArray(sent) && sent.length ? decodeManagedFields(sent) : undefined;
  return decoded && decoded.length ? decoded : servedManagers(served);
}

/** Records `managers` on a (copied) operator object, or clears the record when there are none. */
export function recordManagers(object: KubeObject, managers: Manager[]): KubeObject {
  const annotations = { ...object.metadata?.annotations };
  const entries = encodeManagedFields(managers);
  if (entries.length) annotations[ANNOTATION_MANAGED_FIELDS] = JSON.stringify(entries);
  else delete annotations[ANNOTATION_MANAGED_FIELDS];
  const metadata = { ...object.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { ...object, metadata };
}

/** `metadata.managedFields` of the instance projected from an operator object's record. */
export function recordedManagedFields(annotations: Record<string, string> | undefined): ObjectMeta['managedFields'] {
  const raw = annotations?.[ANNOTATION_MANAGED_FIELDS];
  if (!raw) return undefined;
  try {
    // someone edited the operator object's record by hand: serve it only if it still decodes
    if (!decodeManagedFields(JSON.parse(raw))) return undefined;
  } catch {
    return undefined;
  }
  return new RecordedManagedFields(raw) as unknown as ObjectMeta['managedFields'];
}
