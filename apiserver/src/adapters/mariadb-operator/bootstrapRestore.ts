import { ANNOTATION_RESTORE_FAILED } from '@internal/plugin-databases-common';
import type { Signal } from '../../status/facts';
import { ownedBy } from '../shared/ownedBy';
import { asRecord, asString, findCondition, namespaceOf, nameOf } from '../shared/read';
import { keptConditions, keptOwners } from '../shared/slimParts';
import type { KubeObject, RelatedLookup, RelatedRef, ResourceType } from '../types';

/**
 * mariadb-operator's Restores (k8s.mariadb.com/v1alpha1), read for the one a MariaDB with
 * `spec.bootstrapFrom` makes, kept as identity, owners and conditions.
 */
export const MARIADB_RESTORE: ResourceType = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'restores',
  kind: 'Restore',
  slim: restore => {
    const meta = restore.metadata ?? {};
    const owners = keptOwners(restore);
    return {
      apiVersion: restore.apiVersion,
      kind: restore.kind,
      metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, ...(owners.length && { ownerReferences: owners }) },
      status: { conditions: keptConditions(restore) },
    };
  },
};

/** The Restore the operator makes to bootstrap `source`: `<name>-restore` (MariaDB.RestoreKey()). */
export function bootstrapRestoreRef(source: KubeObject): RelatedRef | undefined {
  if (!asRecord(asRecord(source.spec)?.bootstrapFrom)) return undefined;
  return { type: MARIADB_RESTORE, namespace: namespaceOf(source), name: `${nameOf(source)}-restore` };
}

/**
 * The bootstrap restore failed. The operator's Restore controller writes `Complete=True` reason
 * `JobFailed` "Failed" for a failed Job (pkg/condition SetCompleteWithJob), and its MariaDB
 * reconciler counts any complete Restore as restored (reconcileRestore: `IsComplete()` →
 * SetRestoredBackup, BackupRestored=True), after which Ready follows the StatefulSet: a server
 * without the backup's data that reads Ready "Running". The Restore it owns tells the truth.
 * Current releases delete the Restore as they mark the MariaDB restored: the apiserver records
 * the failure it saw on the MariaDB (ANNOTATION_RESTORE_FAILED, FailedRestoreRecorder), which
 * decides from then on. A failure that happened while no apiserver ran cannot be told.
 */
export function failedBootstrapRestore(source: KubeObject, related: RelatedLookup): Signal | undefined {
  // what the apiserver recorded when it saw it fail (FailedRestoreRecorder): the Restore is gone by now
  const recorded = source.metadata?.annotations?.[ANNOTATION_RESTORE_FAILED];
  if (recorded !== undefined) return { reason: 'RestoreFailed', message: recorded };
  const ref = bootstrapRestoreRef(source);
  const restore = ref && related.get(ref);
  if (!restore || !ownedBy(restore, source, 'MariaDB')) return undefined;
  const complete = findCondition(restore.status, 'Complete');
  if (complete?.status !== 'True' || complete.reason !== 'JobFailed') return undefined;
  return {
    reason: 'RestoreFailed',
    message: `Restore ${ref.name}: ${asString(complete.message) ?? 'JobFailed'} (the operator still reports BackupRestored=True: the backup's data is not in this MariaDB)`,
  };
}
