import type { KubeObject } from '../types';

/**
 * A batch/v1 Job as the Job controller writes it (k8s.io/api batch/v1 JobStatus: conditions,
 * active, ready, failed, succeeded, startTime, completionTime), owned by `owner`: built from
 * the Kubernetes API schema, for the states no upstream capture of a backup Job exists of.
 */
export function jobFixture(
  owner: KubeObject,
  status: Record<string, unknown>,
  overrides: { name?: string; ownerKind?: string; ownerUid?: string } = {},
): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: overrides.name ?? owner.metadata?.name,
      namespace: owner.metadata?.namespace,
      uid: `job-${owner.metadata?.name}`,
      resourceVersion: '7',
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: overrides.ownerKind ?? owner.kind,
          name: owner.metadata?.name,
          uid: overrides.ownerUid ?? owner.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { backoffLimit: 5, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } },
    status,
  };
}

const T0 = '2026-07-01T10:00:00Z';
const T1 = '2026-07-01T10:02:30Z';

/** The Job states backup runs go through, as the Job controller writes them. */
export const JOB_STATUS = {
  /** Created, its pod not scheduled or pulling its image: active, not ready. */
  podNotStarted: { startTime: T0, active: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} },
  running: { startTime: T0, active: 1, ready: 1, terminating: 0, uncountedTerminatedPods: {} },
  complete: {
    startTime: T0,
    completionTime: T1,
    succeeded: 1,
    ready: 0,
    terminating: 0,
    uncountedTerminatedPods: {},
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: T1, lastTransitionTime: T1 },
      { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastProbeTime: T1, lastTransitionTime: T1 },
    ],
  },
  failed: {
    startTime: T0,
    failed: 6,
    ready: 0,
    terminating: 0,
    uncountedTerminatedPods: {},
    conditions: [
      { type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastProbeTime: T1, lastTransitionTime: T1 },
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastProbeTime: T1, lastTransitionTime: T1 },
    ],
  },
} as const;

export const JOB_TIMES = { start: T0, end: T1 };

/**
 * A Job as kube's CronJob controller makes it (derived: pkg/controller/cronjob/utils.go
 * getJobFromTemplate2): named `<cronjob>-<minutes>`, controlled by the CronJob, the template's
 * labels and annotations with the scheduled-time annotation, and the Job API's selector labels.
 */
export function cronJobRun(
  at: { name: string; namespace: string; cronJob: string; rv: string; labels?: Record<string, string> },
  status: Record<string, unknown>,
  owner: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: at.name,
      namespace: at.namespace,
      uid: `job-${at.name}`,
      resourceVersion: at.rv,
      creationTimestamp: T0,
      labels: {
        ...at.labels,
        'batch.kubernetes.io/controller-uid': `job-${at.name}`,
        'batch.kubernetes.io/job-name': at.name,
        'controller-uid': `job-${at.name}`,
        'job-name': at.name,
      },
      annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': T0 },
      ownerReferences: [
        { apiVersion: 'batch/v1', kind: 'CronJob', name: at.cronJob, uid: `cj-${at.cronJob}`, controller: true, blockOwnerDeletion: true, ...owner },
      ],
    },
    spec: { backoffLimit: 5, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } },
    status,
  };
}
