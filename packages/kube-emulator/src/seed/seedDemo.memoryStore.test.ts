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
