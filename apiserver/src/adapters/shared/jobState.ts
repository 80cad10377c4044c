import type { KubeObject } from '../types';
import { asNumber, asRecord, asString, conditionsOf } from './read';

/** Where a batch/v1 Job stands, read from its status alone. */
export type JobPhase = 'Pending' | 'Running' | 'Suspended' | 'Succeeded' | 'Failed';

export interface JobState {
  phase: JobPhase;
  /** PascalCase: the Job condition's reason where one decided (BackoffLimitExceeded...). */
  reason: string;
  /** The Job controller's words (a terminal condition's message), where it has some. */
  message?: string;
  startTime?: string;
  completionTime?: string;
  /** Pods pending or running (`status.active`). */
  active: number;
  /** Active pods that are Ready (`status.ready`); undefined where the cluster does not report it. */
  ready?: number;
  failed: number;
  succeeded: number;
}

const isTrue = (job: KubeObject, type: string) =>
  conditionsOf(job.status).find(c => c.type === type && c.status === 'True');

/**
 * The state of a Job, as the Job controller writes it (k8s.io/api batch/v1 types.go,
 * pkg/controller/job/job_controller.go):
 * - `Failed=True` (BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy...) and, since
 *   Kubernetes 1.31, `FailureTarget=True` first while the last pods terminate: failed for good;
 * - `Complete=True` and, before it, `SuccessCriteriaMet=True`: succeeded;
 * - `Suspended=True` or `spec.suspend`: stopped, no pods;
 * - `status.active` counts pods pending OR running, so "active" is not "running": a pod that
 *   never starts (image pull, no node, a missing volume) is active and not Ready. `status.ready`
 *   (GA in 1.29) tells them apart; a backup container has no readiness probe, so it is Ready
 *   as soon as it runs. Without `ready` (older clusters) an active pod counts as running;
 * - no active pod, some failed and no terminal condition: the controller retries after a
 *   back-off, so the run is still under way.
 * A failed Job has no `completionTime` (only successful ones get it): the Failed condition's
 * transition time is when it ended.
 */
export function jobState(job: KubeObject): JobState {
  const status = asRecord(job.status) ?? {};
  const active = asNumber(status.active) ?? 0;
  const ready = asNumber(status.ready);
  const failed = asNumber(status.failed) ?? 0;
  const succeeded = asNumber(status.succeeded) ?? 0;
  const counts = {
    active,
    ...(ready !== undefined && { ready }),
    failed,
    succeeded,
    ...(asString(status.startTime) && { startTime: asString(status.startTime) }),
  };
  const failure = isTrue(job, 'Failed') ?? isTrue(job, 'FailureTarget');
  if (failure)
    return {
      ...counts,
      phase: 'Failed',
      reason: asString(failure.reason) ?? 'JobFailed',
      ...(asString(failure.message) && { message: failure.message }),
      ...((asString(status.completionTime) ?? asString(failure.lastTransitionTime)) && {
        completionTime: asString(status.completionTime) ?? failure.lastTransitionTime,
      }),
    };
  const success = isTrue(job, 'Complete') ?? isTrue(job, 'SuccessCriteriaMet');
  if (success)
    return {
      ...counts,
      phase: 'Succeeded',
      reason: 'JobComplete',
      ...((asString(status.completionTime) ?? asString(success.lastTransitionTime)) && {
        completionTime: asString(status.completionTime) ?? success.lastTransitionTime,
      }),
    };
  if (isTrue(job, 'Suspended') || asRecord(job.spec)?.suspend === true)
    return { ...counts, phase: 'Suspended', reason: 'JobSuspended' };
  if (active > 0)
    return ready === 0
      ? { ...counts, phase: 'Pending', reason: 'PodNotStarted', message: `The Job's pod has not started (${active} active, none ready)` }
      : { ...counts, phase: 'Running', reason: 'JobRunning' };
  if (failed > 0)
    return { ...counts, phase: 'Running', reason: 'Retrying', message: `${failed} pod(s) of the Job failed; the Job controller retries` };
  return { ...counts, phase: 'Pending', reason: 'JobPending', message: 'The Job has no pod yet' };
}
