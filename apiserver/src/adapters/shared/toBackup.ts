import {
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_LAST_APPLIED,
  ANNOTATION_MANAGED_FIELDS,
  type BackupPhase,
  type Condition,
  type DatabaseBackup,
  type DatabaseEngineName,
  type ObjectMeta,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../types';
import { nameOf } from './read';

/** What an adapter decided about one backup run, before it is wrapped into a DatabaseBackup. */
export interface BackupParts {
  /** Adapter id (`mariadb-operator`). */
  operator: string;
  engine: DatabaseEngineName;
  kind: SourceKind;
  source: KubeObject;
  /** The instance backed up (the name of its operator object, in the same namespace). */
  instanceName: string;
  method?: string;
  phase: BackupPhase;
  reason?: string;
  message?: string;
  startTime?: string;
  completionTime?: string;
  size?: string;
  location?: string;
  /** The operator can restore a new instance from this run (only counted when Succeeded). */
  restorableByOperator: boolean;
}

const COPIED_METADATA = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'labels', 'annotations'] as const;

/**
 * The operator object's annotations as the backup's: kubectl's last-applied copy of the
 * DatabaseBackup comes back under kubectl's key, as for instances (toInstance), and the
 * apiserver's own records are not served as annotations.
 */
function backupAnnotations(annotations: Record<string, string>): Record<string, string> | undefined {
  const {
    [ANNOTATION_LAST_APPLIED]: lastApplied,
    [ANNOTATION_KUBECTL_LAST_APPLIED]: _operatorObjects,
    [ANNOTATION_MANAGED_FIELDS]: _managedFields,
    ...rest
  } = annotations;
  const out = lastApplied === undefined ? rest : { ...rest, [ANNOTATION_KUBECTL_LAST_APPLIED]: lastApplied };
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The served metadata of a backup or schedule object: identity, labels and annotations copied
 * (no resourceVersion: the cache sets it), kubectl's last-applied copy under kubectl's key.
 */
export function backupObjectMetadata(source: KubeObject): ObjectMeta {
  const metadata: ObjectMeta = {};
  for (const key of COPIED_METADATA) {
    const value = source.metadata?.[key];
    if (value !== undefined) (metadata as Record<string, unknown>)[key] = value;
  }
  if (metadata.annotations) {
    const annotations = backupAnnotations(metadata.annotations);
    if (annotations) metadata.annotations = annotations;
    else delete metadata.annotations;
  }
  return metadata;
}

/** The condition type of a run that ended, by its phase. */
const ENDED_CONDITION: Partial<Record<BackupPhase, string>> = { Succeeded: 'Complete', Failed: 'Failed' };

/**
 * A finished run's conditions as a Job's are (`Complete` or `Failed`, True, once the run ended),
 * decided from the run's phase, never copied from the operator: mariadb-operator says
 * `Complete=True` of a failed run (reason JobFailed), and `kubectl wait --for=condition=Complete`
 * must not return for it. A run still going, or not understood, has none. Pure.
 */
export function runConditions(parts: Pick<BackupParts, 'phase' | 'reason' | 'message' | 'startTime' | 'completionTime' | 'source'>): Condition[] | undefined {
  const type = ENDED_CONDITION[parts.phase];
  if (!type) return undefined;
  const since = parts.completionTime ?? parts.startTime ?? parts.source.metadata?.creationTimestamp;
  return [
    {
      type,
      status: 'True',
      reason: parts.reason ?? parts.phase,
      message: parts.message ?? '',
      ...(since !== undefined && { lastTransitionTime: since }),
    },
  ];
}

/**
 * The DatabaseBackup of one operator backup object: metadata copied from it (no
 * resourceVersion: the cache sets it), spec read back, status as decided with its conditions
 * ({@link runConditions}), the raw upstream status attached untouched. `restorable` only for a
 * Succeeded run.
 */
export function toBackup(parts: BackupParts): DatabaseBackup {
  const { source, kind } = parts;
  const conditions = runConditions(parts);
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseBackup',
    metadata: backupObjectMetadata(source),
    spec: {
      instanceRef: { name: parts.instanceName },
      ...(parts.method !== undefined && { method: parts.method }),
    },
    status: {
      phase: parts.phase,
      ...(parts.reason !== undefined && { reason: parts.reason }),
      ...(parts.message !== undefined && { message: parts.message }),
      engine: parts.engine,
      ...(parts.startTime !== undefined && { startTime: parts.startTime }),
      ...(parts.completionTime !== undefined && { completionTime: parts.completionTime }),
      ...(parts.size !== undefined && { size: parts.size }),
      ...(parts.location !== undefined && { location: parts.location }),
      restorable: parts.phase === 'Succeeded' && parts.restorableByOperator,
      source: {
        apiVersion: `${kind.group}/${kind.version}`,
        kind: kind.kind,
        name: nameOf(source),
        operator: parts.operator,
      },
      ...(source.status !== undefined && { operatorStatus: source.status }),
      ...(conditions && { conditions }),
    },
  };
}
