import { describe, it, expect } from '@jest/globals';
import type { Condition } from '@internal/plugin-databases-common';
import {
  buildConditions,
  stabiliseConditions,
  withKstatusCondition,
} from './conditions';

describe('buildConditions', () => {
  it.each([
    ['Ready', 'True'],
    ['Degraded', 'False'],
    ['Pending', 'False'],
    ['Unknown', 'Unknown'],
  ] as const)('phase %s gives Ready=%s', (phase, status) => {
    const [ready] = buildConditions({ phase, reason: 'R' });
    expect(ready).toEqual({ type: 'Ready', status, reason: 'R' });
  });

  it.each([
    ['Pending', 'Reconciling'],
    ['Provisioning', 'Reconciling'],
    ['Updating', 'Reconciling'],
    ['Deleting', 'Reconciling'],
    ['Failed', 'Stalled'],
    ['Paused', 'Stalled'],
    ['Ready', undefined],
    ['Degraded', undefined],
    ['Unknown', undefined],
  ] as const)(
    'phase %s carries the kstatus condition %s (True), after Ready',
    (phase, type) => {
      const conditions = buildConditions(
        { phase, reason: 'R', message: 'M' },
        { observedGeneration: 2 },
      );
      expect(conditions.slice(1)).toEqual(
        type
          ? [
              {
                type,
                status: 'True',
                reason: 'R',
                message: 'M',
                observedGeneration: 2,
              },
            ]
          : [],
      );
    },
  );

  it('replaces the kstatus condition when the verdict changes, keeping the others', () => {
    const before = [
      ...buildConditions({ phase: 'Failed', reason: 'NoReplicasReady' }),
      { type: 'LastBackupSucceeded', status: 'False' as const },
    ];
    expect(
      withKstatusCondition(before, {
        phase: 'Updating',
        reason: 'RollingOut',
      }).map(c => [c.type, c.status, c.reason]),
    ).toEqual([
      ['Ready', 'False', 'NoReplicasReady'],
      ['Reconciling', 'True', 'RollingOut'],
      ['LastBackupSucceeded', 'False', undefined],
    ]);
  });

  it('takes lastTransitionTime from the first upstream condition with the same truth value', () => {
    const [ready] = buildConditions(
      { phase: 'Ready', reason: 'AllReplicasReady', message: 'Running' },
      {
        upstream: [
          undefined,
          {
            type: 'GaleraReady',
            status: 'False',
            lastTransitionTime: '2024-01-01T00:00:00Z',
          },
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2024-02-02T00:00:00Z',
          },
        ],
        observedGeneration: 4,
      },
    );
    expect(ready).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'AllReplicasReady',
      message: 'Running',
      lastTransitionTime: '2024-02-02T00:00:00Z',
      observedGeneration: 4,
    });
  });

  it('leaves lastTransitionTime out when no upstream condition agrees', () => {
    const [ready] = buildConditions(
      { phase: 'Degraded', reason: 'HealthYellow' },
      {
        upstream: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2024-02-02T00:00:00Z',
          },
        ],
      },
    );
    expect(ready.lastTransitionTime).toBeUndefined();
  });
});

describe('stabiliseConditions', () => {
  const previous: Condition[] = [
    {
      type: 'Ready',
      status: 'True',
      reason: 'AllReplicasReady',
      lastTransitionTime: 'T0',
    },
  ];

  it('keeps the previous time while the status is unchanged', () => {
    const next: Condition[] = [
      {
        type: 'Ready',
        status: 'True',
        reason: 'AllReplicasReady',
        lastTransitionTime: 'T5',
      },
    ];
    expect(
      stabiliseConditions(next, previous, 'NOW')[0].lastTransitionTime,
    ).toBe('T0');
  });

  it('uses the upstream time, else now, when the status changed', () => {
    expect(
      stabiliseConditions(
        [{ type: 'Ready', status: 'False', lastTransitionTime: 'T5' }],
        previous,
        'NOW',
      )[0].lastTransitionTime,
    ).toBe('T5');
    expect(
      stabiliseConditions(
        [{ type: 'Ready', status: 'False' }],
        previous,
        'NOW',
      )[0].lastTransitionTime,
    ).toBe('NOW');
    expect(
      stabiliseConditions(
        [{ type: 'Ready', status: 'False' }],
        undefined,
        'NOW',
      )[0].lastTransitionTime,
    ).toBe('NOW');
  });
});
