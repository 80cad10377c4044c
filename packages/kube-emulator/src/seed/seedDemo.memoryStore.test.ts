import { describe, expect, it } from '@jest/globals';
import { MemoryObjectStore } from '../store/MemoryObjectStore';
import { loadCompactCrds } from '../crds/loadCompactCrds';
import { loadUpstreamCrds } from '../operators/__testutils__/upstream';
import { OperatorEmulator } from '../operators/OperatorEmulator';
import { seedDemo } from './seedDemo';
import { DEMO_INSTANCES } from './demoInstances';
import { observedPhase } from './__testutils__/observedPhase';

const CRDS = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
};
const emulated = new Set(
  DEMO_INSTANCES.map(i => `${i.kind.plural}.${i.kind.group}`),
);

// The same demo against the emulator's real store, once with our compact CRDs and once with the
// upstream ones: every write the operators make must pass that store's validation.
describe.each([
  ['compact CRDs', () => loadCompactCrds()],
  [
    'upstream CRDs',
    () =>
      [...loadUpstreamCrds().values()].filter(c =>
        emulated.has(c.metadata.name),
      ),
  ],
])('seedDemo on MemoryObjectStore with %s', (_name, crds) => {
  it('brings every demo instance to its phase without a failed write', () => {
    const store = new MemoryObjectStore();
    for (const crd of crds()) store.create(CRDS, crd);
    const warnings: unknown[] = [];
    const emulator = new OperatorEmulator({
      store,
      logger: { warn: (m, f) => warnings.push([m, f]) },
    });
    seedDemo(store, { emulator });
    emulator.settle();
    expect(warnings).toEqual([]);
    const phases = DEMO_INSTANCES.map(i => {
      const o = store.get(i.kind, i.namespace, i.name)!;
      const sts = store
        .list(
          { group: 'apps', version: 'v1', plural: 'statefulsets' },
          i.namespace,
        )
        .filter(x =>
          (x.metadata.ownerReferences ?? []).some(
            r => r.uid === o.metadata.uid,
          ),
        );
      return [i.name, observedPhase(i, o, sts)];
    });
    expect(phases).toEqual(DEMO_INSTANCES.map(i => [i.name, i.phase]));
  });
});

/** A store whose peeks hand out frozen copies: a reader that changed what it peeked would throw. */
class FrozenPeekStore extends MemoryObjectStore {
  peeked = 0;
  override peek(...args: Parameters<MemoryObjectStore['peek']>) {
    const found = super.peek(...args);
    if (!found) return found;
    this.peeked++;
    return deepFreeze(structuredClone(found));
  }
  override peekList(...args: Parameters<MemoryObjectStore['peekList']>) {
    return super.peekList(...args).map(o => {
      this.peeked++;
      return deepFreeze(structuredClone(o));
    });
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('the emulated operators read members without copies (peek)', () => {
  it('and change none of what they read: the demo, a scale-down, a crash loop and a delete on frozen objects', () => {
    const store = new FrozenPeekStore();
    for (const crd of loadCompactCrds()) store.create(CRDS, crd);
    const warnings: unknown[] = [];
    const emulator = new OperatorEmulator({ store, logger: { warn: (m, f) => warnings.push([m, f]) } });
    seedDemo(store, { emulator });
    emulator.settle();
    const mariadb = DEMO_INSTANCES.find(i => i.name === 'orders-db')!;
    const ref = { group: mariadb.kind.group, kind: mariadb.kind.kind, namespace: mariadb.namespace, name: mariadb.name };
    const o = store.get(mariadb.kind, mariadb.namespace, mariadb.name)!;
    store.update(mariadb.kind, { ...o, spec: { ...(o.spec as object), replicas: 1 } });
    emulator.setHealth(ref, 'degraded');
    emulator.setFault(ref, 'crash-loop');
    emulator.settle();
    const pods = () => store.list({ group: '', version: 'v1', plural: 'pods' }, mariadb.namespace).filter(p => p.metadata.name.startsWith('orders-db-'));
    expect(pods().map(p => p.metadata.name)).toEqual(['orders-db-0']);
    // and each instance deleted (its finalizer's round, then its members' garbage collection)
    for (const i of DEMO_INSTANCES) store.delete(i.kind, i.namespace, i.name);
    emulator.settle();
    expect(DEMO_INSTANCES.filter(i => store.get(i.kind, i.namespace, i.name))).toEqual([]);
    expect(pods()).toEqual([]);
    expect(warnings).toEqual([]);
    expect(store.peeked).toBeGreaterThan(100);
  });

  it('an object written through another served version is reconciled through the operator\'s: its StatefulSet is owned by elasticsearch.k8s.elastic.co/v1', () => {
    const store = new FrozenPeekStore();
    for (const crd of loadCompactCrds()) store.create(CRDS, crd);
    // without finalizers: the first round's finalizer write would store it through v1 before anything else
    const emulator = new OperatorEmulator({ store, finalizers: false, logger: { warn: () => undefined } });
    const v1beta1 = { group: 'elasticsearch.k8s.elastic.co', version: 'v1beta1', plural: 'elasticsearches' };
    store.create({ group: '', version: 'v1', plural: 'namespaces' }, { metadata: { name: 'team-x' } });
    store.create(v1beta1, {
      apiVersion: 'elasticsearch.k8s.elastic.co/v1beta1',
      kind: 'Elasticsearch',
      metadata: { name: 'logs', namespace: 'team-x' },
      spec: { version: '8.19.0', nodeSets: [{ name: 'default', count: 1 }] },
    });
    // its first round already: the StatefulSet is created before the status write stores it through v1
    emulator.tick();
    const sets = store.list({ group: 'apps', version: 'v1', plural: 'statefulsets' }, 'team-x');
    expect(sets.length).toBeGreaterThan(0);
    for (const set of sets) expect(set.metadata.ownerReferences?.map(r => r.apiVersion)).toEqual(['elasticsearch.k8s.elastic.co/v1']);
  });
});
