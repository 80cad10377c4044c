import type { StoredObject } from '../../store/types';

/** A condition as mariadb-operator's pkg/condition writes one. */
export type Cond = { type: string; status: 'True' | 'False'; reason: string; message: string };

/** `type` is a True condition of `o`'s status. */
export const isTrue = (o: StoredObject | undefined, type: string): boolean =>
  ((o?.status as any)?.conditions ?? []).some((c: any) => c.type === type && c.status === 'True');

/**
 * SetCompleteWithJob (pkg/condition/complete.go), for Backups and Restores alike: a failed Job is
 * `Complete=True` with reason `JobFailed` (the operator's words: the run is over, not that it
 * succeeded), a finished one `Complete=True` `JobComplete`, otherwise `Complete=False` `JobRunning`.
 */
export function completeWithJob(job: StoredObject | undefined): Cond {
  if (isTrue(job, 'Failed')) return { type: 'Complete', status: 'True', reason: 'JobFailed', message: 'Failed' };
  if (isTrue(job, 'Suspended')) return { type: 'Complete', status: 'False', reason: 'JobSuspended', message: 'Suspended' };
  if (isTrue(job, 'Complete')) return { type: 'Complete', status: 'True', reason: 'JobComplete', message: 'Success' };
  return { type: 'Complete', status: 'False', reason: 'JobRunning', message: 'Running' };
}
