import { describe, expect, it } from '@jest/globals';
import { fakeCluster } from '../operators/__testutils__/fakeCluster';
import { upstreamErrors } from '../operators/__testutils__/upstream';
import { OperatorEmulator } from '../operators/OperatorEmulator';
import { ALL_OPERATORS } from '../operators/allOperators';
import { seedDemo } from './seedDemo';
import { DEMO_INSTANCES, type DemoInstance } from './demoInstances';
import { observedPhase } from './__testutils__/observedPhase';

describe('seedDemo', () => {
  const store = fakeCluster();
  const emulator = new OperatorEmulator({
    store,
    logger: {
      warn: (m, f) => {
        throw new Error(`${m} ${JSON.stringify(f)}`);
      },
    },
  });
  const seeded = seedDemo(store, { emulator });
  emulator.settle();
  const get = (i: DemoInstance) => store.get(i.kind, i.namespace, i.name)!;

  it('creates the three team namespaces with labels', () => {
    const ns = store.list({ group: '', version: 'v1', plural: 'namespaces' });
    expect(
      ns
        .map(n => [
          n.metadata.name,
          n.metadata.labels?.['dbaas.platform.dev/team'],
        ])
        .sort(),
    ).toEqual([
      ['team-a', 'team-a'],
      ['team-b', 'team-b'],
      ['team-c', 'team-c'],
    ]);
  });

  it('covers every emulated kind, several components and every demo phase', () => {
    const kinds = ALL_OPERATORS.flatMap(op => op.kinds.map(k => k.kind)).sort();
    expect([...new Set(seeded.map(i => i.kind.kind))].sort()).toEqual(kinds);
    expect(new Set(seeded.map(i => i.component)).size).toBeGreaterThanOrEqual(
      5,
    );
    expect([...new Set(seeded.map(i => i.phase))].sort()).toEqual([
      'Degraded',
      'Failed',
      'Pending',
      'Provisioning',
      'Ready',
    ]);
    expect(seeded.filter(i => i.phase === 'Ready').length).toBeGreaterThan(
      seeded.length / 2,
    );
  });

  it('labels each object for its component and annotates its owner team', () => {
    for (const i of seeded) {
      const o = get(i);
      expect([
        o.metadata.labels?.['backstage.io/kubernetes-id'],
        o.metadata.annotations?.['dbaas.platform.dev/owner'],
      ]).toEqual([i.component, `group:default/${i.namespace}`]);
    }
  });

  it.each(
    DEMO_INSTANCES.map(
      i => [`${i.kind.kind} ${i.namespace}/${i.name}`, i] as const,
    ),
  )('%s validates against the upstream CRD', (_n, i) => {
    const o = get(i);
    expect(
      upstreamErrors(
        {
          apiVersion: o.apiVersion,
          kind: o.kind,
          metadata: o.metadata,
          spec: o.spec,
        },
        i.kind,
      ),
    ).toEqual([]);
    // Redis and RedisSentinel (and the stalled object) have no status to check.
    expect(
      o.status === undefined ? [] : upstreamErrors(o, i.kind, 'status'),
    ).toEqual([]);
  });

  it.each(
    DEMO_INSTANCES.map(
      i => [`${i.kind.kind} ${i.namespace}/${i.name}`, i.phase, i] as const,
    ),
  )('%s shows %s once the operators have run', (_n, phase, i) => {
    const o = get(i);
    const sts = store
      .list(
        { group: 'apps', version: 'v1', plural: 'statefulsets' },
        i.namespace,
      )
      .filter(x =>
        (x.metadata.ownerReferences ?? []).some(r => r.uid === o.metadata.uid),
      );
    expect(observedPhase(i, o, sts)).toBe(phase);
  });

  it('is idempotent', () => {
    const before = store.currentRV();
    expect(() => seedDemo(store, { emulator })).not.toThrow();
    expect(store.currentRV()).toBe(before);
  });
});
