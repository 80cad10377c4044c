import { describe, expect, it } from '@jest/globals';
import type { StoredObject } from '../store/types';
import { CNPG_CLUSTER_KIND } from './cloudnative-pg/cloudnativePgOperator';
import { ELASTICSEARCH_KIND } from './eck/eckOperator';
import { MARIADB_KIND } from './mariadb-operator/mariadbOperator';
import { RABBITMQCLUSTER_KIND } from './rabbitmq-cluster-operator/rabbitmqOperator';
import { condition, harness, NS } from './__testutils__/harness';
import type { CustomKind } from './types';

const PODS = { group: '', version: 'v1', plural: 'pods' };
const CLAIMS = { group: '', version: 'v1', plural: 'persistentvolumeclaims' };

type Harness = ReturnType<typeof harness>;
type Pause = (o: StoredObject, on: boolean) => void;

const marker =
  (map: 'labels' | 'annotations', key: string, value: string): Pause =>
  (o, on) => {
    const values = { ...o.metadata[map] };
    if (on) values[key] = value;
    else delete values[key];
    o.metadata[map] = values;
  };

/** Each operator's documented pause, how it says so, and the replica count to scale. */
const cases: Array<{
  operator: string;
  kind: CustomKind;
  spec: Record<string, unknown>;
  pause: Pause;
  scale(spec: any): void;
  sts: string;
  says(status: any): unknown;
  expected: Record<string, string>;
}> = [
  {
    operator: 'mariadb-operator (spec.suspend)',
    kind: MARIADB_KIND,
    spec: { image: 'mariadb:11.4.2', replicas: 1, storage: { size: '1Gi' } },
    pause: (o, on) => {
      (o.spec as any).suspend = on;
    },
    scale: s => {
      s.replicas = 2;
    },
    sts: 'db',
    says: s => condition(s, 'Ready'),
    expected: { status: 'False', reason: 'Suspended' },
  },
  {
    operator: 'RabbitMQ (rabbitmq.com/pauseReconciliation)',
    kind: RABBITMQCLUSTER_KIND,
    spec: { replicas: 1, persistence: { storage: '1Gi' } },
    pause: marker('labels', 'rabbitmq.com/pauseReconciliation', 'true'),
    scale: s => {
      s.replicas = 3;
    },
    sts: 'db-server',
    says: s => condition(s, 'NoWarnings'),
    expected: { status: 'False', reason: 'reconciliation paused' },
  },
  {
    operator: 'ECK (pause-orchestration)',
    kind: ELASTICSEARCH_KIND,
    spec: { version: '9.4.3', nodeSets: [{ name: 'default', count: 1 }] },
    pause: marker('annotations', 'eck.k8s.elastic.co/pause-orchestration', 'true'),
    scale: s => {
      s.nodeSets[0].count = 3;
    },
    sts: 'db-es-default',
    says: s => condition(s, 'OrchestrationPaused'),
    expected: { status: 'True' },
  },
];

function setPause(h: Harness, kind: CustomKind, pause: Pause, on: boolean) {
  const o = h.get(kind, 'db');
  pause(o, on);
  h.store.update(kind, o);
}

const podNames = (h: Harness) =>
  h.store.list(PODS, NS).map(p => p.metadata.name).sort();

describe('emulated operators honour their documented pause', () => {
  it.each(cases)(
    '$operator: a paused object is left alone and says so; a resume applies what waited',
    ({ kind, spec, pause, scale, sts, says, expected }) => {
      const h = harness();
      h.create(kind, 'db', spec);
      h.emulator.settle();
      const before = h.sts(sts)?.spec;
      setPause(h, kind, pause, true);
      h.emulator.settle();
      expect(says(h.get(kind, 'db').status)).toMatchObject(expected);

      h.patchSpec(kind, 'db', scale);
      h.emulator.settle();
      // not reconciled: the StatefulSet still has its old size
      expect(h.sts(sts)?.spec).toEqual(before);
      expect(h.upstreamStatusErrors(kind)).toEqual([]);

      setPause(h, kind, pause, false);
      h.emulator.settle();
      expect((h.sts(sts)?.spec as any).replicas).toBeGreaterThan(
        (before as any).replicas,
      );
      expect(h.upstreamStatusErrors(kind)).toEqual([]);
    },
  );

  it('ECK: after a resume the OrchestrationPaused condition stays, False (MaybeResetPausedCondition)', () => {
    const h = harness();
    const { spec, pause } = cases[2];
    h.create(ELASTICSEARCH_KIND, 'db', spec);
    h.emulator.settle();
    setPause(h, ELASTICSEARCH_KIND, pause, true);
    h.emulator.settle();
    setPause(h, ELASTICSEARCH_KIND, pause, false);
    h.emulator.settle();
    expect(condition(h.get(ELASTICSEARCH_KIND, 'db').status, 'OrchestrationPaused')).toMatchObject({
      status: 'False',
      message: 'Orchestration has resumed normally',
    });
  });

  it('CloudNativePG hibernation: the pods go, the PVCs stay, the condition says Hibernated; rehydration brings the pods back', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'db', { instances: 2, storage: { size: '1Gi' } });
    h.emulator.settle();
    expect(podNames(h)).toEqual(['db-1', 'db-2']);
    const hibernate = marker('annotations', 'cnpg.io/hibernation', 'on');
    setPause(h, CNPG_CLUSTER_KIND, hibernate, true);
    h.emulator.settle();
    expect(podNames(h)).toEqual([]);
    expect(h.store.list(CLAIMS, NS).map(c => c.metadata.name).sort()).toEqual(['db-1', 'db-2']);
    const status = h.get(CNPG_CLUSTER_KIND, 'db').status as any;
    expect(condition(status, 'cnpg.io/hibernation')).toMatchObject({ status: 'True', reason: 'Hibernated' });
    expect(status.phase).toBe('Cluster in healthy state');
    expect(h.upstreamStatusErrors(CNPG_CLUSTER_KIND)).toEqual([]);

    setPause(h, CNPG_CLUSTER_KIND, hibernate, false);
    h.emulator.settle();
    expect(podNames(h)).toEqual(['db-1', 'db-2']);
    expect(condition(h.get(CNPG_CLUSTER_KIND, 'db').status, 'cnpg.io/hibernation')).toBeUndefined();
  });

  it('CloudNativePG with the reconciliation loop disabled: the status stays frozen', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'db', { instances: 1, storage: { size: '1Gi' } });
    h.emulator.settle();
    const frozen = h.get(CNPG_CLUSTER_KIND, 'db').status;
    setPause(h, CNPG_CLUSTER_KIND, marker('annotations', 'cnpg.io/reconciliationLoop', 'disabled'), true);
    h.patchSpec(CNPG_CLUSTER_KIND, 'db', s => {
      s.instances = 3;
    });
    h.emulator.settle();
    expect(h.get(CNPG_CLUSTER_KIND, 'db').status).toEqual(frozen);
    expect(podNames(h)).toEqual(['db-1']);
  });
});
