import {
  ANNOTATION_DELETION_PROTECTION,
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  APISERVER_RECORDS,
  ANNOTATION_REQUESTED_BY,
  type DatabaseInstance,
  LABEL_MANAGED_BY,
  LABEL_REQUESTED_BY,
  MANAGED_BY_VALUE,
} from '@internal/plugin-databases-common';
import type { BuildOptions, KubeObject } from '../adapters/types';
import { toLabelValue } from './labelValue';


/**
 * Metadata of the operator object for an instance: same name and namespace; the instance's
 * labels and annotations (`backstage.io/kubernetes-id`, `dbaas.platform.dev/owner`, ...)
 * copied; `app.kubernetes.io/managed-by: dbaas-apiserver`; who asked (sanitised label, full
 * annotation), replacing anything the client claimed; deletion protection as an annotation.
 */
export function operatorMetadata(
  instance: DatabaseInstance,
  options: BuildOptions = {},
): NonNullable<KubeObject['metadata']> {
  const labels: Record<string, string> = { ...instance.metadata.labels };
  const annotations: Record<string, string> = {
    ...instance.metadata.annotations,
  };
  // kubectl's copy describes the DatabaseInstance: kept under our key (see the constant)
  delete annotations[ANNOTATION_KUBECTL_LAST_APPLIED];
  delete annotations[ANNOTATION_LAST_APPLIED];
  // the apiserver's records (a new object has never been Ready, whatever a client claims; the
  // managed fields are written after this, recordManagers), never a client's
  for (const key of APISERVER_RECORDS) delete annotations[key];
  const lastApplied = instance.metadata.annotations?.[ANNOTATION_KUBECTL_LAST_APPLIED];
  if (lastApplied !== undefined) annotations[ANNOTATION_LAST_APPLIED] = lastApplied;
  delete labels[LABEL_REQUESTED_BY];
  delete annotations[ANNOTATION_REQUESTED_BY];
  delete annotations[ANNOTATION_DELETION_PROTECTION];
  labels[LABEL_MANAGED_BY] = MANAGED_BY_VALUE;
  if (options.requestedBy) {
    const value = toLabelValue(options.requestedBy);
    if (value) labels[LABEL_REQUESTED_BY] = value;
    annotations[ANNOTATION_REQUESTED_BY] = options.requestedBy;
  }
  if (instance.spec.deletionProtection === true)
    annotations[ANNOTATION_DELETION_PROTECTION] = 'true';
  return {
    name: instance.metadata.name,
    namespace: instance.metadata.namespace,
    labels,
    ...(Object.keys(annotations).length > 0 && { annotations }),
  };
}

/** Sets or clears the deletion-protection annotation on a (copied) operator object. */
export function setDeletionProtection(
  object: KubeObject,
  protect: boolean | undefined,
): void {
  const metadata = (object.metadata ??= {});
  const annotations = { ...metadata.annotations };
  if (protect === true) annotations[ANNOTATION_DELETION_PROTECTION] = 'true';
  else delete annotations[ANNOTATION_DELETION_PROTECTION];
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
}

/** Whether an operator object is protected from deletion (the annotation is `"true"`). */
export const isDeletionProtected = (object: KubeObject) =>
  object.metadata?.annotations?.[ANNOTATION_DELETION_PROTECTION] === 'true';

/** A deep copy of an unstructured object (JSON round trip: these are JSON values). */
export const cloneObject = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value)) as T;
