import { describe, it, expect } from '@jest/globals';
import { observeStatefulSet } from './statefulSetFacts';

const sts = (spec: object, status: object, generation?: number) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'orders', ...(generation !== undefined && { generation }) },
  spec,
  status,
});

describe('observeStatefulSet', () => {
  it('sees nothing where there is no StatefulSet', () => {
    expect(observeStatefulSet(undefined)).toBeUndefined();
    expect(observeStatefulSet(null)).toBeUndefined();
    expect(observeStatefulSet('orders')).toBeUndefined();
  });

  it('reads desired and ready replicas', () => {
    expect(
      observeStatefulSet(sts({ replicas: 3 }, { readyReplicas: 2 })),
    ).toEqual({ desired: 3, ready: 2, rollingOut: false });
  });

  it('takes apps/v1 defaults: one desired replica, none ready until reported', () => {
    expect(observeStatefulSet(sts({}, {}))).toEqual({
      desired: 1,
      ready: 0,
      rollingOut: false,
    });
    expect(observeStatefulSet({ metadata: { name: 'x' } })).toEqual({
      desired: 1,
      ready: 0,
      rollingOut: false,
    });
  });

  it.each<[string, object, number | undefined, boolean]>([
    ['controller behind the spec', { observedGeneration: 3 }, 4, true],
    ['controller caught up', { observedGeneration: 4 }, 4, false],
    [
      'controller ahead (a stale read of the object)',
      { observedGeneration: 5 },
      4,
      false,
    ],
    ['no generation reported', { observedGeneration: 3 }, undefined, false],
    ['no observedGeneration reported', {}, 4, false],
    [
      'pods on an old revision',
      { currentRevision: 'orders-1', updateRevision: 'orders-2' },
      undefined,
      true,
    ],
    [
      'every pod on the new revision',
      { currentRevision: 'orders-2', updateRevision: 'orders-2' },
      undefined,
      false,
    ],
    [
      'only the update revision known',
      { updateRevision: 'orders-2' },
      undefined,
      false,
    ],
    [
      'only the current revision known',
      { currentRevision: 'orders-1' },
      undefined,
      false,
    ],
  ])('rollout: %s', (_case, status, generation, rollingOut) => {
    expect(
      observeStatefulSet(
        sts({ replicas: 3 }, { readyReplicas: 3, ...status }, generation),
      )?.rollingOut,
    ).toBe(rollingOut);
  });
});
