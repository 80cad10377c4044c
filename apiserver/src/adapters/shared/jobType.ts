import type { KubeObject, ResourceType } from '../types';
import { asArray, asRecord } from './read';

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
const CONDITION_KEYS = ['type', 'status', 'reason', 'message', 'lastTransitionTime'] as const;

const pick = (from: Record<string, any>, keys: readonly string[]) => {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
};

/** A Job as the cache keeps it: identity, owners, `spec.suspend` and its status. */
export function slimJob(job: KubeObject): KubeObject {
  const meta = job.metadata ?? {};
  const status = asRecord(job.status) ?? {};
  const owners = asArray(meta.ownerReferences)
    .map(asRecord)
    .filter((r): r is Record<string, any> => r !== undefined)
    .map(r => pick(r, ['apiVersion', 'kind', 'name', 'uid', 'controller']));
  const conditions = asArray(status.conditions)
    .map(asRecord)
    .filter((c): c is Record<string, any> => c !== undefined)
    .map(c => pick(c, CONDITION_KEYS));
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
