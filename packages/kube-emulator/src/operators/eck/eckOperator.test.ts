import { describe, expect, it } from '@jest/globals';
import { harness, NS } from '../__testutils__/harness';
import { upstreamStatusSamples } from '../__testutils__/upstream';
import { ELASTICSEARCH_KIND } from './eckOperator';

const samples = upstreamStatusSamples('eck');
const sample = (prefix: string) =>
  samples.find(s => s.file.startsWith(prefix))!.status;
const ready = sample('elasticsearch-ready-green');
const applying = sample('elasticsearch-applyingchanges-downscale');
const red = sample('elasticsearch-red');

const spec = {
  version: '9.4.3',
  nodeSets: [
    { name: 'default', count: 3, config: { 'node.store.allow_mmap': false } },
  ],
};
const ref = { kind: 'Elasticsearch', namespace: NS, name: 'search' };
const status = (h: ReturnType<typeof harness>) =>
  h.get(ELASTICSEARCH_KIND, 'search').status as any;

describe('eckOperator', () => {
  it('moves a new cluster from no status through ApplyingChanges to Ready/green', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'search', spec);
    expect(h.get(ELASTICSEARCH_KIND, 'search').status).toBeUndefined();
    h.emulator.tick();
    expect(status(h)).toMatchObject({
      phase: applying.phase,
      availableNodes: 0,
      health: 'unknown',
    });
    h.emulator.settle();
    const s = status(h);
    expect({ phase: s.phase, health: s.health }).toEqual({
      phase: ready.phase,
      health: ready.health,
    });
    expect(s.availableNodes).toBe(3);
    expect(s.version).toBe('9.4.3');
    expect(s.observedGeneration).toBe(
      h.get(ELASTICSEARCH_KIND, 'search').metadata.generation,
    );
    expect(s.conditions.every((c: any) => c.status === 'True')).toBe(true);
    expect(h.upstreamStatusErrors(ELASTICSEARCH_KIND)).toEqual([]);
  });

  it('writes conditions as ECK does: the upstream condition types, no reason field', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'search', spec);
    h.emulator.settle();
    const upstreamTypes = applying.conditions.map((c: any) => c.type).sort();
    const keys = new Set(
      applying.conditions.flatMap((c: any) => Object.keys(c)),
    );
    for (const s of h.statuses(ELASTICSEARCH_KIND, 'search')) {
      expect(
        s.conditions
          .map((c: any) => c.type)
          .filter((t: string) => !upstreamTypes.includes(t)),
      ).toEqual([]);
      expect(
        s.conditions
          .flatMap((c: any) => Object.keys(c))
          .filter((k: string) => !keys.has(k)),
      ).toEqual([]);
    }
    expect(
      status(h)
        .conditions.map((c: any) => c.type)
        .sort(),
    ).toEqual(upstreamTypes);
  });

  it('creates the es-prefixed StatefulSets, Services and elastic user Secret, and removes them on delete', () => {
    const h = harness();
    const cr = h.create(ELASTICSEARCH_KIND, 'search', {
      ...spec,
      nodeSets: [...spec.nodeSets, { name: 'data', count: 2 }],
    });
    h.emulator.settle();
    expect(h.owned(cr).sort()).toEqual(
      [
        'secrets/search-es-elastic-user',
        'services/search-es-data',
        'services/search-es-default',
        'services/search-es-http',
        'services/search-es-internal-http',
        'services/search-es-transport',
        'statefulsets/search-es-data',
        'statefulsets/search-es-default',
      ].sort(),
    );
    const secret = h.store.get(
      { group: '', version: 'v1', plural: 'secrets' },
      NS,
      'search-es-elastic-user',
    ) as any;
    expect(Object.keys(secret.data)).toEqual(['elastic']);
    expect(status(h).availableNodes).toBe(5);
    h.store.delete(ELASTICSEARCH_KIND, NS, 'search');
    h.emulator.tick();
    expect(h.owned(cr)).toEqual([]);
  });

  it('applies a version upgrade as ApplyingChanges, reporting the lowest running version until done', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'search', spec);
    h.emulator.settle();
    h.patchSpec(ELASTICSEARCH_KIND, 'search', s => (s.version = '9.4.4'));
    h.emulator.tick();
    const during = status(h);
    expect(during.phase).toBe(applying.phase);
    expect(during.version).toBe('9.4.3');
    expect(
      during.conditions.find((c: any) => c.type === 'ReconciliationComplete')
        .status,
    ).toBe('False');
    expect(
      during.conditions.find((c: any) => c.type === 'RunningDesiredVersion')
        .status,
    ).toBe('False');
    expect(during.inProgressOperations.upgrade.nodes.length).toBeGreaterThan(0);
    expect(during.observedGeneration).toBe(2);
    h.emulator.settle();
    expect(status(h)).toMatchObject({
      phase: ready.phase,
      health: 'green',
      version: '9.4.4',
      availableNodes: 3,
    });
    expect(h.upstreamStatusErrors(ELASTICSEARCH_KIND)).toEqual([]);
  });

  it('lists upscaled nodes while scaling out', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'search', spec);
    h.emulator.settle();
    h.patchSpec(ELASTICSEARCH_KIND, 'search', s => (s.nodeSets[0].count = 5));
    h.emulator.tick();
    expect(status(h).inProgressOperations.upscale.nodes).toEqual([
      { name: 'search-es-default-4', status: 'PENDING' },
    ]);
    expect(status(h).phase).toBe(applying.phase);
  });

  it('goes yellow with a node missing when degraded', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'search', spec);
    h.emulator.settle();
    h.emulator.setHealth(ref, 'degraded');
    h.emulator.tick();
    expect(status(h)).toMatchObject({
      health: 'yellow',
      availableNodes: 2,
      phase: ready.phase,
    });
  });

  it('goes red with its nodes still up when failed, as the upstream red sample', () => {
    const h = harness();
    h.create(ELASTICSEARCH_KIND, 'search', spec);
    h.emulator.settle();
    h.emulator.setHealth(ref, 'failed');
    h.emulator.tick();
    const s = status(h);
    expect({
      health: s.health,
      phase: s.phase,
      availableNodes: s.availableNodes,
    }).toEqual({
      health: red.health,
      phase: red.phase,
      availableNodes: red.availableNodes,
    });
    expect(h.upstreamStatusErrors(ELASTICSEARCH_KIND)).toEqual([]);
  });
});
