import {
  ANNOTATION_DELETION_PROTECTION,
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  ANNOTATION_READY_SPEC,
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
 * apiserver's own record (ANNOTATION_READY_SPEC).
 */
const SYSTEM_KEYS = new Set([
  LABEL_REQUESTED_BY,
  LABEL_MANAGED_BY,
  ANNOTATION_REQUESTED_BY,
  ANNOTATION_DELETION_PROTECTION,
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  ANNOTATION_READY_SPEC,
]);

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
