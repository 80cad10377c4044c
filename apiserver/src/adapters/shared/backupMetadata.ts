import {
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  ANNOTATION_MANAGED_FIELDS,
  ANNOTATION_REQUESTED_BY,
  LABEL_MANAGED_BY,
  LABEL_REQUESTED_BY,
  MANAGED_BY_VALUE,
  type ObjectMeta,
} from '@internal/plugin-databases-common';
import type { BuildOptions, KubeObject } from '../types';
import { toLabelValue } from '../../writes/labelValue';

/**
 * Metadata of the operator object that takes the backup (or runs the schedule) `backup`, as operatorMetadata does
 * for instances: same name and namespace; the backup's labels and annotations copied (kubectl's
 * last-applied copy under our key); `app.kubernetes.io/managed-by: dbaas-apiserver`; who asked
 * (sanitised label, full annotation) replacing whatever the client claimed. No owner
 * references: a backup run outlives nothing and nothing should take it down with it.
 */
export function backupMetadata(
  backup: { metadata: ObjectMeta },
  options: BuildOptions = {},
): NonNullable<KubeObject['metadata']> {
  const labels: Record<string, string> = { ...backup.metadata.labels };
  const annotations: Record<string, string> = { ...backup.metadata.annotations };
  const lastApplied = annotations[ANNOTATION_KUBECTL_LAST_APPLIED];
  delete annotations[ANNOTATION_KUBECTL_LAST_APPLIED];
  delete annotations[ANNOTATION_LAST_APPLIED];
  delete annotations[ANNOTATION_MANAGED_FIELDS];
  if (lastApplied !== undefined) annotations[ANNOTATION_LAST_APPLIED] = lastApplied;
  delete labels[LABEL_REQUESTED_BY];
  delete annotations[ANNOTATION_REQUESTED_BY];
  labels[LABEL_MANAGED_BY] = MANAGED_BY_VALUE;
  if (options.requestedBy) {
    const value = toLabelValue(options.requestedBy);
    if (value) labels[LABEL_REQUESTED_BY] = value;
    annotations[ANNOTATION_REQUESTED_BY] = options.requestedBy;
  }
  return {
    name: backup.metadata.name,
    namespace: backup.metadata.namespace,
    labels,
    ...(Object.keys(annotations).length > 0 && { annotations }),
  };
}
