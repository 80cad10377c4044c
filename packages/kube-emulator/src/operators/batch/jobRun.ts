import type { StoredObject } from '../../store/types';
import type { BackupFate } from '../types';

/** Kubernetes timestamps have second precision (metav1.Time). */
export const kubeTime = (d: Date): string => `${d.toISOString().slice(0, 19)}Z`;

type Status = Record<string, any>;

const hasCondition = (s: Status, type: string) =>
  (s.conditions ?? []).some((c: any) => c.type === type && c.status === 'True');

/** A Job is done once the job controller wrote Complete or Failed. */
export const jobFinished = (job: StoredObject): boolean =>
  hasCondition(job.status ?? {}, 'Complete') || hasCondition(job.status ?? {}, 'Failed');

export const jobSucceeded = (job: StoredObject): boolean =>
  hasCondition(job.status ?? {}, 'Complete');

/** A Job whose pod is running or has run (it got past Pending). */
export const jobStarted = (job: StoredObject): boolean => {
  const s: Status = job.status ?? {};
  return (s.ready ?? 0) > 0 || (s.succeeded ?? 0) > 0 || (s.failed ?? 0) > 0 || jobFinished(job);
};

const condition = (type: string, reason: string, message: string, now: string) => ({
  type,
  status: 'True',
  lastProbeTime: now,
  lastTransitionTime: now,
  reason,
  message,
});

const SUCCEEDED = ['CompletionsReached', 'Reached expected number of succeeded pods'] as const;
const FAILED = ['BackoffLimitExceeded', 'Job has reached the specified backoff limit'] as const;

/**
 * The status the job controller (pkg/controller/job/job_controller.go, 1.32) writes next for a
 * Job with one pod, one step per round: started with its pod active; the pod ready; its end
 * (SuccessCriteriaMet, or FailureTarget with the failed pods counted); then the terminal
 * condition (Complete with completionTime, or Failed). A `pending` Job's pod never starts.
 * Undefined when there is nothing left to write.
 */
export function nextJobStatus(job: StoredObject, fate: BackupFate, now: Date): Status | undefined {
  const s: Status = job.status ?? {};
  const t = kubeTime(now);
  const base = { startTime: s.startTime ?? t, terminating: 0, uncountedTerminatedPods: {} };
  if (jobFinished(job)) return undefined;
  if (hasCondition(s, 'SuccessCriteriaMet'))
    return { ...s, completionTime: t, conditions: [...s.conditions, condition('Complete', ...SUCCEEDED, t)] };
  if (hasCondition(s, 'FailureTarget'))
    return { ...s, conditions: [...s.conditions, condition('Failed', ...FAILED, t)] };
  if (!s.startTime) return { ...base, active: 1, ready: 0 };
  if (fate === 'pending') return undefined;
  if (!s.ready) return { ...base, active: 1, ready: 1 };
  if (fate === 'fail') {
    // with restartPolicy Never every retry is a new failed pod: backoffLimit + 1 of them
    const spec = (job.spec ?? {}) as Record<string, any>;
    const never = spec.template?.spec?.restartPolicy === 'Never';
    return { ...base, failed: never ? (spec.backoffLimit ?? 6) + 1 : 1, ready: 0, conditions: [condition('FailureTarget', ...FAILED, t)] };
  }
  return { ...base, succeeded: 1, ready: 0, conditions: [condition('SuccessCriteriaMet', ...SUCCEEDED, t)] };
}
