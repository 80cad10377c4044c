import { describe, expect, it } from '@jest/globals';
import { JOB_STATUS, JOB_TIMES, jobFixture } from '../__testUtils__/jobFixture';
import type { KubeObject } from '../types';
import { jobState } from './jobState';
import { slimJob } from './jobType';
import { ownedBy } from './ownedBy';

const owner: KubeObject = {
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'Backup',
  metadata: { name: 'nightly', namespace: 'team-a', uid: 'u-1' },
};
const job = (status: Record<string, unknown>, spec?: Record<string, unknown>) => {
  const j = jobFixture(owner, status);
  return spec ? { ...j, spec: { ...j.spec, ...spec } } : j;
};

describe('jobState (derived-from-schema batch/v1 Jobs)', () => {
  it('a pod that never started is Pending, not Running (active counts pending pods)', () => {
    expect(jobState(job(JOB_STATUS.podNotStarted))).toMatchObject({ phase: 'Pending', reason: 'PodNotStarted', active: 1, ready: 0 });
  });

  it('a ready pod is Running; without status.ready (older clusters) an active pod counts as running', () => {
    expect(jobState(job(JOB_STATUS.running))).toMatchObject({ phase: 'Running', reason: 'JobRunning', startTime: JOB_TIMES.start });
    expect(jobState(job({ active: 1 }))).toMatchObject({ phase: 'Running' });
  });

  it('Complete / SuccessCriteriaMet are Succeeded with the completion time', () => {
    expect(jobState(job(JOB_STATUS.complete))).toMatchObject({ phase: 'Succeeded', completionTime: JOB_TIMES.end });
    const criteriaOnly = { ...JOB_STATUS.complete, completionTime: undefined, conditions: [JOB_STATUS.complete.conditions[0]] };
    expect(jobState(job(criteriaOnly))).toMatchObject({ phase: 'Succeeded', completionTime: JOB_TIMES.end });
  });

  it('Failed / FailureTarget are Failed with the reason and message, ended at the transition', () => {
    expect(jobState(job(JOB_STATUS.failed))).toMatchObject({
      phase: 'Failed',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
      completionTime: JOB_TIMES.end,
      failed: 6,
    });
    const targetOnly = { ...JOB_STATUS.failed, conditions: [JOB_STATUS.failed.conditions[0]] };
    expect(jobState(job(targetOnly))).toMatchObject({ phase: 'Failed', reason: 'BackoffLimitExceeded' });
  });

  it('a failed condition wins over a Complete one, whatever the order', () => {
    const both = { ...JOB_STATUS.failed, conditions: [...JOB_STATUS.complete.conditions, ...JOB_STATUS.failed.conditions] };
    expect(jobState(job(both)).phase).toBe('Failed');
  });

  it('failed pods without a terminal condition are retried: still under way', () => {
    expect(jobState(job({ startTime: JOB_TIMES.start, failed: 2 }))).toMatchObject({ phase: 'Running', reason: 'Retrying' });
  });

  it('a suspended Job, and a Job without pods yet', () => {
    expect(jobState(job({}, { suspend: true }))).toMatchObject({ phase: 'Suspended' });
    expect(jobState(job({ conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended' }] }))).toMatchObject({ phase: 'Suspended' });
    expect(jobState(job({}))).toMatchObject({ phase: 'Pending', reason: 'JobPending' });
    expect(jobState({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'x' }, status: 'garbage' })).toMatchObject({ phase: 'Pending' });
  });

  it('the slim copy reads the same', () => {
    for (const status of Object.values(JOB_STATUS)) {
      const full = job(status);
      const slim = slimJob(full);
      expect(jobState(slim)).toEqual(jobState(full));
      expect(ownedBy(slim, owner, 'Backup')).toBe(true);
      expect(slim.metadata?.resourceVersion).toBe('7');
      expect(JSON.stringify(slim)).not.toContain('template');
    }
  });

  it('ownedBy: by uid where both have one, else by kind and name', () => {
    expect(ownedBy(jobFixture(owner, {}), owner, 'Backup')).toBe(true);
    expect(ownedBy(jobFixture(owner, {}, { ownerUid: 'other' }), owner, 'Backup')).toBe(false);
    expect(ownedBy(jobFixture(owner, {}, { ownerKind: 'CronJob' }), owner, 'Backup')).toBe(false);
    const noUid = { ...owner, metadata: { name: 'nightly' } };
    expect(ownedBy(jobFixture(noUid, {}), noUid, 'Backup')).toBe(true);
    expect(ownedBy({ metadata: { name: 'nightly' } }, owner, 'Backup')).toBe(false);
  });
});
