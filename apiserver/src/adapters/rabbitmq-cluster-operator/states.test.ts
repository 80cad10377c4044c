import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { updateThrough } from '../__testUtils__/updateThrough';
import type { KubeObject } from '../types';
import {
  rabbitmqClusterOperatorAdapter as adapter,
  rabbitmqFacts,
} from './adapter';

/*
 * RabbitmqCluster objects built from the rabbitmq.com/v1beta1 status schema (conditions
 * AllReplicasReady, ClusterAvailable, ReconcileSuccess; the "x/y Pods ready" message of
 * internal/status/all_replicas_ready.go). Derived, not captured.
 */

const rabbit = (
  status?: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
  spec: Record<string, unknown> = { replicas: 3 },
): KubeObject => ({
  apiVersion: 'rabbitmq.com/v1beta1',
  kind: 'RabbitmqCluster',
  metadata: { name: 'mq', namespace: 'team-a', generation: 2, ...metadata },
  spec,
  ...(status && { status }),
});
const c = (
  type: string,
  status: string,
  reason?: string,
  message?: string,
) => ({ type, status, ...(reason && { reason }), ...(message && { message }) });
const ready = [
  c('AllReplicasReady', 'True'),
  c('ClusterAvailable', 'True'),
  c('ReconcileSuccess', 'True'),
];

describe('rabbitmqFacts', () => {
  it('all replicas ready counts the desired ones ready', () => {
    expect(
      rabbitmqFacts(rabbit({ conditions: ready, observedGeneration: 2 })),
    ).toMatchObject({
      replicas: { desired: 3, ready: 3 },
      operatorReady: true,
      generation: 2,
      observedGeneration: 2,
    });
    expect(
      rabbitmqFacts(rabbit({ conditions: ready }, {}, {})).replicas,
    ).toEqual({ desired: 1, ready: 1 });
  });

  it.each<[string | undefined, number | undefined]>([
    ['2/3 Pods ready', 2],
    ['12/13 Pods ready', 12],
    ['3/13 Pods ready', 3],
    ['waiting: 2/3 Pods ready', undefined],
    [undefined, undefined],
  ])('reads the ready count from %j', (message, count) => {
    const facts = rabbitmqFacts(
      rabbit({
        conditions: [
          c('AllReplicasReady', 'False', 'NotAllPodsReady', message),
        ],
      }),
    );
    expect(facts.replicas).toEqual(
      count === undefined ? { desired: 3 } : { desired: 3, ready: count },
    );
  });

  it('not all replicas ready keeps the operator reason and message', () => {
    const facts = rabbitmqFacts(
      rabbit({
        conditions: [
          c('AllReplicasReady', 'False', 'NotAllPodsReady', '2/3 Pods ready'),
        ],
      }),
    );
    expect(facts).toMatchObject({
      operatorReady: false,
      readyMessage: '2/3 Pods ready',
      notReadyReason: 'NotAllPodsReady',
    });
    expect(
      rabbitmqFacts(rabbit({ conditions: [c('AllReplicasReady', 'False')] }))
        .notReadyReason,
    ).toBeUndefined();
  });

  it('a cluster not available is not serving, with the default reason when none is given', () => {
    const facts = rabbitmqFacts(
      rabbit({
        conditions: [
          c('AllReplicasReady', 'True'),
          c('ClusterAvailable', 'False', undefined, 'no endpoints'),
        ],
      }),
    );
    expect(facts.notServing).toEqual({
      reason: 'ClusterUnavailable',
      message: 'no endpoints',
    });
    expect(facts.operatorReady).toBeUndefined();
    const named = rabbitmqFacts(
      rabbit({ conditions: [c('ClusterAvailable', 'False', 'NoEndpoints')] }),
    );
    expect(named.notServing?.reason).toBe('NoEndpoints');
  });

  it('a failed reconcile is an error and keeps all-replicas-ready from meaning Ready', () => {
    const facts = rabbitmqFacts(
      rabbit({
        conditions: [
          c('AllReplicasReady', 'True'),
          c('ReconcileSuccess', 'False', 'FailedReconcile', 'bad config'),
        ],
      }),
    );
    expect(facts.error).toEqual({
      reason: 'FailedReconcile',
      message: 'bad config',
    });
    expect(facts.operatorReady).toBeUndefined();
  });

  it('is deleting with a deletionTimestamp', () => {
    expect(
      rabbitmqFacts(
        rabbit(
          { conditions: ready },
          { deletionTimestamp: '2026-01-01T00:00:00Z' },
        ),
      ).deleting,
    ).toBe(true);
    expect(rabbitmqFacts(rabbit({ conditions: ready })).deleting).toBe(false);
  });

  it('the pause label pauses; another value does not', () => {
    expect(
      rabbitmqFacts(
        rabbit(
          { conditions: ready },
          { labels: { 'rabbitmq.com/pauseReconciliation': 'true' } },
        ),
      ).paused?.reason,
    ).toBe('ReconciliationPaused');
    expect(
      rabbitmqFacts(
        rabbit(
          { conditions: ready },
          { labels: { 'rabbitmq.com/pauseReconciliation': 'false' } },
        ),
      ).paused,
    ).toBeUndefined();
  });
});

describe('RabbitMQ writes', () => {
  const update = (
    current: KubeObject,
    change: Partial<DatabaseInstanceSpec>,
    without: Array<keyof DatabaseInstanceSpec> = [],
  ) => updateThrough(adapter, current, change, without);

  it('keeps the image and replicas a change does not name', () => {
    const current = rabbit(
      undefined,
      {},
      { replicas: 3, image: 'rabbitmq:3.13.7-management' },
    );
    const result = update(current, { storage: { size: '20Gi' } }, [
      'replicas',
      'version',
    ]);
    expect(result.object?.spec).toMatchObject({
      replicas: 3,
      image: 'rabbitmq:3.13.7-management',
      persistence: { storage: '20Gi' },
    });
  });
});
