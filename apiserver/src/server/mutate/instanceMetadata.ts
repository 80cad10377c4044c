import {
  ANNOTATION_DELETION_PROTECTION,
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  APISERVER_RECORDS,
  ANNOTATION_REQUESTED_BY,
  LABEL_MANAGED_BY,
  LABEL_REQUESTED_BY,
  type ObjectMeta,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../../adapters/types';

/**
 * Keys clients cannot change through a DatabaseInstance: who asked and who manages it are
 * set by the apiserver at create, deletion protection follows `spec.deletionProtection`,
 * and kubectl's last-applied copy describes the DatabaseInstance, not the operator object
 * (it is kept under our own key, see ANNOTATION_LAST_APPLIED); the last Ready spec is the
 * apiserver's own record (ANNOTATION_READY_SPEC), as are the managed fields
 * (ANNOTATION_MANAGED_FIELDS, written from `metadata.managedFields`).
 */
const SYSTEM_KEYS = new Set([
  LABEL_REQUESTED_BY,
  LABEL_MANAGED_BY,
  ANNOTATION_REQUESTED_BY,
  ANNOTATION_DELETION_PROTECTION,
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  ...APISERVER_RECORDS,
]);

/** What a client's labels or annotations can change: every key but the system ones (kubectl's copy is kept under ours). */
const writable = (key: string) => !SYSTEM_KEYS.has(key) || key === ANNOTATION_KUBECTL_LAST_APPLIED;

function withServedSystemKeys(after: Record<string, string> | undefined, before: Record<string, string> | undefined) {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(after ?? {})) if (writable(key)) out[key] = value;
  for (const [key, value] of Object.entries(before ?? {})) if (!writable(key)) out[key] = value;
  return Object.keys(out).length ? out : undefined;
}

/**
 * `after` with the system keys as `before` has them: the metadata a write can actually give
 * an instance, so a key the apiserver ignores is never recorded as a client's field.
 */
export function effectiveMetadata(after: ObjectMeta, before: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = { ...after };
  const labels = withServedSystemKeys(after.labels, before.labels);
  const annotations = withServedSystemKeys(after.annotations, before.annotations);
  if (labels) out.labels = labels;
  else delete out.labels;
  if (annotations) out.annotations = annotations;
  else delete out.annotations;
  return out;
}

/** `meta` without the keys no client can set: what an applied config or a create asks for. */
export const withoutSystemKeys = (meta: ObjectMeta): ObjectMeta => effectiveMetadata(meta, {});

function applyMapChanges(
  target: Record<string, string> | undefined,
  before: Record<string, string> | undefined,
  after: Record<string, string> | undefined,
): Record<string, string> | undefined {
  const out = { ...target };
  for (const key of Object.keys(before ?? {})) {
    // own keys only: a label named `constructor` must be removable
    if (!SYSTEM_KEYS.has(key) && !Object.prototype.hasOwnProperty.call(after ?? {}, key)) delete out[key];
  }
  for (const [key, value] of Object.entries(after ?? {})) {
    if (!SYSTEM_KEYS.has(key) && before?.[key] !== value) out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Carries the label and annotation changes a client made to an instance (`before` as served,
 * `after` as sent) over to the operator object (a copy is returned). Only what the client
 * changed is touched, so keys the operator or others set on the object stay.
 */
export function applyMetadataChanges(object: KubeObject, before: ObjectMeta, after: ObjectMeta): KubeObject {
  const metadata = { ...object.metadata };
  const labels = applyMapChanges(metadata.labels, before.labels, after.labels);
  const annotations = applyMapChanges(metadata.annotations, before.annotations, after.annotations) ?? {};
  const lastApplied = after.annotations?.[ANNOTATION_KUBECTL_LAST_APPLIED];
  if (lastApplied !== before.annotations?.[ANNOTATION_KUBECTL_LAST_APPLIED]) {
    if (lastApplied === undefined) delete annotations[ANNOTATION_LAST_APPLIED];
    else annotations[ANNOTATION_LAST_APPLIED] = lastApplied;
  }
  if (labels) metadata.labels = labels;
  else delete metadata.labels;
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { ...object, metadata };
}
