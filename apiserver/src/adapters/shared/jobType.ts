import type { KubeObject, ResourceType } from '../types';
import { asRecord } from './read';
import { keptConditions, keptOwners, pick } from './slimParts';

/**
 * batch/v1 Jobs as a related type of backup runs: only those with `labelSelector` where the
 * operator labels its Jobs, kept slim (owner references, `spec.suspend` and the status the
 * run's phase is read from: see jobState).
 */
export function jobType(labelSelector?: string): ResourceType {
  return {
    group: 'batch',
    version: 'v1',
    plural: 'jobs',
    kind: 'Job',
    ...(labelSelector && { labelSelector }),
    slim: slimJob,
  };
}

const STATUS_KEYS = ['active', 'ready', 'failed', 'succeeded', 'startTime', 'completionTime'] as const;

/** A Job as the cache keeps it: identity, owners, `spec.suspend` and its status. */
export function slimJob(job: KubeObject): KubeObject {
  const meta = job.metadata ?? {};
  const status = asRecord(job.status) ?? {};
  const owners = keptOwners(job);
  const conditions = keptConditions(job);
  const suspend = asRecord(job.spec)?.suspend;
  return {
    apiVersion: job.apiVersion,
    kind: job.kind,
    metadata: {
      ...pick(meta, ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp']),
      ...(owners.length > 0 && { ownerReferences: owners }),
    },
    ...(typeof suspend === 'boolean' && { spec: { suspend } }),
    status: {
      ...pick(status, STATUS_KEYS),
      ...(conditions.length > 0 && { conditions }),
    },
  };
}
