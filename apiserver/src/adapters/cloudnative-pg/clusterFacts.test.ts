import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../types';
import { clusterFacts } from './clusterFacts';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { cloudnativePgAdapter } from './adapter';

/*
 * Facts of Cluster objects built from the postgresql.cnpg.io/v1 status schema (phase sentences of
 * api/v1/cluster_types.go, conditions Ready / ContinuousArchiving / LastBackupSucceeded /
 * cnpg.io/hibernation, currentPrimary / targetPrimary, readyInstances) and the documented
 * annotations. Derived, not captured.
 */

const cluster = (
  status?: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
  spec: Record<string, unknown> = { instances: 3 },
): KubeObject => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'team-a', ...metadata },
  spec,
  ...(status && { status }),
});
const healthy = (extra: Record<string, unknown> = {}) => ({
  phase: 'Cluster in healthy state',
  readyInstances: 3,
  currentPrimary: 'pg-1',
  targetPrimary: 'pg-1',
  ...extra,
});
const condition = (
  type: string,
  status: string,
  reason?: string,
  message?: string,
) => ({
  type,
  status,
  ...(reason && { reason }),
  ...(message && { message }),
});

describe('clusterFacts: paused', () => {
  it('hibernated (condition True) with the reconciler message', () => {
    const facts = clusterFacts(
      cluster(
        healthy({
          conditions: [
            condition(
              'cnpg.io/hibernation',
              'True',
              'Hibernated',
              'Cluster has been hibernated',
            ),
          ],
        }),
      ),
    );
    expect(facts.paused).toEqual({
      reason: 'Hibernated',
      message: 'Cluster has been hibernated',
    });
  });

  it('hibernation asked by the annotation and not done yet', () => {
    const facts = clusterFacts(
      cluster(healthy(), { annotations: { 'cnpg.io/hibernation': 'on' } }),
    );
    expect(facts.paused).toEqual({
      reason: 'Hibernating',
      message: 'Hibernation requested (cnpg.io/hibernation: on)',
    });
  });

  it('a hibernation condition False and the annotation off is no pause', () => {
    const facts = clusterFacts(
      cluster(
        healthy({ conditions: [condition('cnpg.io/hibernation', 'False')] }),
        { annotations: { 'cnpg.io/hibernation': 'off' } },
      ),
    );
    expect(facts.paused).toBeUndefined();
  });

  it('reconciliation disabled: the status may be stale', () => {
    const facts = clusterFacts(
      cluster(healthy(), {
        annotations: { 'cnpg.io/reconciliationLoop': 'disabled' },
      }),
    );
    expect(facts.paused).toEqual({
      reason: 'ReconciliationDisabled',
      message:
        'cnpg.io/reconciliationLoop is "disabled": the operator does not reconcile this cluster, so its status may be stale',
    });
    expect(
      clusterFacts(
        cluster(healthy(), {
          annotations: { 'cnpg.io/reconciliationLoop': 'enabled' },
        }),
      ).paused,
    ).toBeUndefined();
  });
});

describe('clusterFacts: archiving and backups', () => {
  it('a failing WAL archiver is unhealthy with its message', () => {
    const facts = clusterFacts(
      cluster(
        healthy({
          conditions: [
            condition(
              'ContinuousArchiving',
              'False',
              'ContinuousArchivingFailing',
              'wal-g: 403',
            ),
          ],
        }),
      ),
    );
    expect(facts.unhealthy).toEqual({
      reason: 'ContinuousArchivingFailing',
      message: 'wal-g: 403',
    });
  });

  it('a failed last backup is unhealthy; a running one (BackupStarted) is not', () => {
    const failed = clusterFacts(
      cluster(
        healthy({
          conditions: [
            condition(
              'LastBackupSucceeded',
              'False',
              'LastBackupFailed',
              'no space',
            ),
          ],
        }),
      ),
    );
    expect(failed.unhealthy).toEqual({
      reason: 'LastBackupFailed',
      message: 'no space',
    });
    const started = clusterFacts(
      cluster(
        healthy({
          conditions: [
            condition('LastBackupSucceeded', 'False', 'BackupStarted'),
          ],
        }),
      ),
    );
    expect(started.unhealthy).toBeUndefined();
    const ok = clusterFacts(
      cluster(
        healthy({
          conditions: [
            condition('LastBackupSucceeded', 'True', 'LastBackupSucceeded'),
          ],
        }),
      ),
    );
    expect(ok.unhealthy).toBeUndefined();
  });
});

describe('clusterFacts: once ready', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['the healthy phase', healthy(), true],
    [
      'WAL archiving that worked',
      {
        phase: 'Creating a new replica',
        conditions: [condition('ContinuousArchiving', 'True')],
      },
      true,
    ],
    [
      'a successful backup',
      {
        phase: 'Creating a new replica',
        lastSuccessfulBackup: '2026-11-30T10:00:00Z',
      },
      true,
    ],
    [
      'a recoverability point',
      {
        phase: 'Creating a new replica',
        firstRecoverabilityPoint: '2026-11-30T10:00:00Z',
      },
      true,
    ],
    [
      'a primary alone (creation has one too)',
      { phase: 'Creating a new replica', currentPrimary: 'pg-1' },
      false,
    ],
  ])('%s', (_name, status, onceReady) => {
    expect(clusterFacts(cluster(status)).onceReady).toBe(onceReady);
  });
});

describe('clusterFacts: phases', () => {
  it('is deleting with a deletionTimestamp', () => {
    expect(
      clusterFacts(
        cluster(healthy(), { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      ).deleting,
    ).toBe(true);
    expect(clusterFacts(cluster(healthy())).deleting).toBe(false);
  });

  it('counts instances: desired from spec (CRD default 1), ready 0 when readyInstances is omitted', () => {
    expect(
      clusterFacts(cluster({ phase: 'Setting up primary' }, {}, {})).replicas,
    ).toEqual({ desired: 1, ready: 0 });
  });

  it('without a phase: no verdict and no ready count, unless archiving already says something', () => {
    const facts = clusterFacts(cluster({ readyInstances: 2 }));
    expect(facts.indeterminate).toEqual({
      reason: 'UnrecognizedPhase',
      message: 'The operator reports no phase',
    });
    expect(facts.replicas).toEqual({ desired: 3 });
    const archiving = clusterFacts(
      cluster({
        conditions: [condition('ContinuousArchiving', 'False', 'x', 'failing')],
      }),
    );
    expect(archiving.indeterminate).toBeUndefined();
    expect(archiving.unhealthy?.reason).toBe('ContinuousArchivingFailing');
  });

  it('healthy with Ready False (issue #4209): neither is believed, the message says both', () => {
    const facts = clusterFacts(
      cluster(
        healthy({
          conditions: [
            condition(
              'Ready',
              'False',
              'ClusterIsNotReady',
              'instances not ready',
            ),
          ],
        }),
      ),
    );
    expect(facts.indeterminate).toEqual({
      reason: 'PhaseAndReadyDisagree',
      message:
        'The phase says "Cluster in healthy state" but the Ready condition is False (instances not ready)',
    });
    expect(facts.replicas).toEqual({ desired: 3 });
    expect(facts.operatorReady).toBeUndefined();
    const byReason = clusterFacts(
      cluster(
        healthy({
          conditions: [condition('Ready', 'False', 'ClusterIsNotReady')],
        }),
      ),
    );
    expect(byReason.indeterminate?.message).toMatch(/\(ClusterIsNotReady\)$/);
    const bare = clusterFacts(
      cluster(healthy({ conditions: [condition('Ready', 'False')] })),
    );
    expect(bare.indeterminate?.message).toMatch(/is False \(\)$/);
  });

  it('healthy and the primary is the target: Ready with the phase as message', () => {
    const facts = clusterFacts(cluster(healthy()));
    expect(facts).toMatchObject({
      operatorReady: true,
      readyMessage: 'Cluster in healthy state',
      replicas: { desired: 3, ready: 3 },
    });
    expect(facts.progress).toBeUndefined();
    expect(facts.unhealthy).toBeUndefined();
  });

  it('healthy but the operator targets another primary: a switchover in progress (a change)', () => {
    expect(
      clusterFacts(cluster(healthy({ targetPrimary: 'pg-2' }))).progress,
    ).toEqual({
      reason: 'Switchover',
      message: 'Switching over from pg-1 to pg-2',
      change: true,
    });
    expect(
      clusterFacts(
        cluster(healthy({ currentPrimary: undefined, targetPrimary: 'pg-2' })),
      ).progress?.message,
    ).toBe('Switching over from no primary to pg-2');
    expect(
      clusterFacts(cluster(healthy({ targetPrimary: undefined }))).progress
        ?.message,
    ).toBe('Switching over from pg-1 to no primary');
  });

  it('healthy with targetPrimary "pending": failing over, with the phase reason', () => {
    const facts = clusterFacts(
      cluster(
        healthy({
          targetPrimary: 'pending',
          phaseReason: 'primary pg-1 is gone',
        }),
      ),
    );
    expect(facts.unhealthy).toEqual({
      reason: 'FailingOver',
      message: 'primary pg-1 is gone',
    });
    expect(facts.progress).toBeUndefined();
  });

  it.each<
    [
      string,
      string,
      Partial<Record<'progress' | 'unhealthy' | 'error', unknown>>,
    ]
  >([
    [
      'Setting up primary',
      'creating',
      { progress: { reason: 'SettingUpPrimary', message: 'initdb' } },
    ],
    [
      'Upgrading cluster',
      'changing',
      {
        progress: {
          reason: 'UpgradingCluster',
          message: 'initdb',
          change: true,
        },
      },
    ],
    [
      'Failing over',
      'unhealthy',
      { unhealthy: { reason: 'FailingOver', message: 'initdb' } },
    ],
    [
      'Waiting for user action',
      'failed',
      { error: { reason: 'WaitingForUserAction', message: 'initdb' } },
    ],
  ])(
    '"%s" is a %s fact with the phase reason as message',
    (phase, _fact, expected) => {
      expect(
        clusterFacts(cluster({ phase, phaseReason: 'initdb' })),
      ).toMatchObject(expected);
    },
  );

  it('without a phase reason the sentence itself is the message', () => {
    expect(
      clusterFacts(cluster({ phase: 'Setting up primary' })).progress?.message,
    ).toBe('Setting up primary');
  });

  it('a sentence this adapter does not know: no verdict, no ready count', () => {
    const facts = clusterFacts(
      cluster({ phase: 'Doing something new', readyInstances: 3 }),
    );
    expect(facts.indeterminate).toEqual({
      reason: 'UnrecognizedPhase',
      message: 'CloudNativePG reports phase "Doing something new"',
    });
    expect(facts.replicas).toEqual({ desired: 3 });
  });
});

describe('cloudnativePgAdapter projection details', () => {
  const project = (o: KubeObject) =>
    cloudnativePgAdapter.project(o, cloudnativePgAdapter.kinds[0], emptyLookup);

  it('mirrors the archiving and backup conditions with their words, and only True/False ones', () => {
    const conditions = project(
      cluster(
        healthy({
          conditions: [
            {
              type: 'ContinuousArchiving',
              status: 'False',
              reason: 'Failing',
              message: 'wal-g: 403',
              lastTransitionTime: '2026-11-30T10:00:00Z',
            },
            { type: 'LastBackupSucceeded', status: 'Unknown' },
          ],
        }),
      ),
    ).status?.conditions;
    expect(conditions).toContainEqual({
      type: 'ContinuousArchiving',
      status: 'False',
      reason: 'Failing',
      message: 'wal-g: 403',
      lastTransitionTime: '2026-11-30T10:00:00Z',
    });
    expect(
      conditions?.find(c => c.type === 'LastBackupSucceeded'),
    ).toBeUndefined();
    const bare = project(
      cluster(
        healthy({
          conditions: [{ type: 'LastBackupSucceeded', status: 'True' }],
        }),
      ),
    ).status?.conditions;
    expect(bare).toContainEqual({
      type: 'LastBackupSucceeded',
      status: 'True',
    });
  });

  it('keeps the rw Service even when the Cluster disables the defaults, and drops the disabled others', () => {
    const o = cluster(
      healthy(),
      {},
      {
        instances: 3,
        managed: { services: { disabledDefaultServices: ['ro', 'r', 'rw'] } },
      },
    );
    expect(project(o).status?.endpoints?.map(e => e.host)).toEqual([
      'pg-rw.team-a.svc',
    ]);
  });

  it('the Ready condition carries the time of the operator Ready condition', () => {
    const o = cluster(
      healthy({
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-11-30T11:00:00Z',
          },
        ],
      }),
    );
    expect(
      project(o).status?.conditions?.find(c => c.type === 'Ready')
        ?.lastTransitionTime,
    ).toBe('2026-11-30T11:00:00Z');
  });

  it('reads the running version off the data image, else the status image, else the data major', () => {
    const at = (status: Record<string, unknown>) =>
      project(cluster(healthy(status))).status?.version;
    expect(
      at({
        pgDataImageInfo: {
          image: 'ghcr.io/cloudnative-pg/postgresql:17.2',
          majorVersion: 17,
        },
        image: 'x:16.1',
      }),
    ).toBe('17.2');
    expect(at({ image: 'ghcr.io/cloudnative-pg/postgresql:16.4' })).toBe(
      '16.4',
    );
    expect(at({ pgDataImageInfo: { majorVersion: 15 } })).toBe('15');
  });

  it('is the cloudnative-pg operator', () => {
    expect(project(cluster(healthy())).status?.source).toMatchObject({
      operator: 'cloudnative-pg',
    });
  });
});
