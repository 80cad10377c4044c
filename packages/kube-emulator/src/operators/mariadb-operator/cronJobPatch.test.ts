import { describe, expect, it } from '@jest/globals';
import type { StoredObject } from '../../store/types';
// the operator first: backups.ts and mariadbOperator.ts import each other, the operator is the entry
import './mariadbOperator';
import { cronJobPatch } from '../batch/cronJobPatch';
import { backupCronJob } from './backups';

const backup = (schedule: Record<string, unknown>) =>
  ({
    apiVersion: 'k8s.mariadb.com/v1alpha1',
    kind: 'Backup',
    metadata: { name: 'orders-db-nightly', namespace: 'team-a', uid: 'b-1' },
    spec: { mariaDbRef: { name: 'orders-db' }, schedule, timeZone: 'UTC', storage: { persistentVolumeClaim: {} } },
  }) as unknown as StoredObject;

describe('emulated mariadb-operator: reconcileCronJob (pkg/controller/batch/controller.go)', () => {
  const existing = { ...backupCronJob(backup({ cron: '*/1 * * * *', suspend: false }), undefined), metadata: { name: 'orders-db-nightly', uid: 'cj-1' } } as unknown as StoredObject;

  it('an unchanged Backup leaves its CronJob alone', () => {
    expect(cronJobPatch(existing, backupCronJob(backup({ cron: '*/1 * * * *', suspend: false }), undefined))).toBeUndefined();
  });

  it("a new cron or suspend on the Backup is patched onto its CronJob, the rest kept", () => {
    const patched = cronJobPatch(existing, backupCronJob(backup({ cron: '0 3 * * *', suspend: true }), undefined))!;
    expect(patched.spec).toMatchObject({ schedule: '0 3 * * *', suspend: true, timeZone: 'UTC', concurrencyPolicy: 'Forbid' });
    expect(patched.metadata).toEqual(existing.metadata);
  });
});
