import type { KubeObject, ResourceType } from '../types';
import { asArray, asRecord } from './read';

/**
 * batch/v1 CronJobs, what runs an operator's backup schedule: a scheduled mariadb-operator
 * Backup's (named after the Backup, labelled only with its `spec.inheritMetadata`,
 * pkg/builder/batch_builder.go BuildBackupCronJob) and mysql-operator's `<cluster>-<schedule>-cb`
 * (backup_objects.py), found by name, so no label selects them. Kept slim: identity, owners,
 * schedule, suspend and the status the runs are read from.
 */
export const cronJobType: ResourceType = {
  group: 'batch',
  version: 'v1',
  plural: 'cronjobs',
  kind: 'CronJob',
  slim: slimCronJob,
};

export function slimCronJob(cronJob: KubeObject): KubeObject {
  const meta = cronJob.metadata ?? {};
  const spec = asRecord(cronJob.spec) ?? {};
  const status = asRecord(cronJob.status) ?? {};
  const owners = asArray(meta.ownerReferences)
    .map(asRecord)
    .filter((r): r is Record<string, any> => r !== undefined)
    .map(({ apiVersion, kind, name, uid, controller }) => ({ apiVersion, kind, name, uid, controller }));
  const active = asArray(status.active)
    .map(asRecord)
    .filter((r): r is Record<string, any> => r !== undefined)
    .map(({ name }) => ({ name }));
  return {
    apiVersion: cronJob.apiVersion,
    kind: cronJob.kind,
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      ...(owners.length > 0 && { ownerReferences: owners }),
    },
    spec: { schedule: spec.schedule, ...(typeof spec.suspend === 'boolean' && { suspend: spec.suspend }) },
    status: {
      ...(active.length > 0 && { active }),
      ...(status.lastScheduleTime !== undefined && { lastScheduleTime: status.lastScheduleTime }),
      ...(status.lastSuccessfulTime !== undefined && { lastSuccessfulTime: status.lastSuccessfulTime }),
    },
  };
}
