import { describe, expect, it } from '@jest/globals';
import { completeWithCronJob } from './completeWithCronJob';

const cronJob = (status: Record<string, unknown>) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly', namespace: 'ns' }, status }) as any;

// pkg/condition/complete.go SetCompleteWithCronJob, with the constants of api/v1alpha1/condition_types.go (v26)
describe("the emulated mariadb-operator's Complete condition of a scheduled Backup", () => {
  it('says Scheduled before a success, Running with a run active, Success after one', () => {
    expect(completeWithCronJob(cronJob({}))).toMatchObject({ status: 'False', reason: 'CronJobScheduled', message: 'Scheduled' });
    const behind = { lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-01T03:01:00Z' };
    expect(completeWithCronJob(cronJob({ ...behind, active: [{ name: 'nightly-1' }] }))).toMatchObject({ status: 'False', reason: 'CronJobRunning' });
    expect(completeWithCronJob(cronJob({ lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-02T03:01:00Z' }))).toMatchObject({
      status: 'True',
      reason: 'CronJobSuccess',
    });
  });

  it('reports a failed run as upstream does: reason CronJobScheduled (ConditionReasonCronJobFailed\'s value), message Failed', () => {
    const failed = completeWithCronJob(cronJob({ lastScheduleTime: '2026-07-02T03:00:00Z', lastSuccessfulTime: '2026-07-01T03:01:00Z' }));
    expect(failed).toMatchObject({ status: 'False', reason: 'CronJobScheduled', message: 'Failed' });
  });
});
