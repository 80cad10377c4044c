import { describe, expect, it } from '@jest/globals';
import { adapters } from '@internal/databases-apiserver';
import { ENGINE_CASES } from './engineCases';
import { readManifest, readManifests, sampleIn } from './upstream';

describe('sampleIn', () => {
  const upstream = {
    apiVersion: 'example.com/v1',
    kind: 'Thing',
    metadata: {
      name: 'orders',
      namespace: 'upstream-ns',
      uid: 'u-1',
      resourceVersion: '7',
      labels: { app: 'orders' },
    },
    spec: { size: 3 },
    status: { phase: 'Ready' },
  };

  it('moves the object to the test namespace, keeps name, spec and labels, adds the suite label', () => {
    expect(sampleIn(upstream, 'conf-ns', { suite: 'yes' })).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: {
        name: 'orders',
        namespace: 'conf-ns',
        labels: { app: 'orders', suite: 'yes' },
      },
      spec: { size: 3 },
    });
  });

  it('does not change the upstream object', () => {
    const before = JSON.stringify(upstream);
    sampleIn(upstream, 'conf-ns', { suite: 'yes' });
    expect(JSON.stringify(upstream)).toBe(before);
  });
});

describe('readManifests', () => {
  it('skips the comment-only and empty documents of multi-document files', () => {
    const docs = readManifests('redis-operator/samples/redis-cluster.yaml');
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every(d => typeof d.kind === 'string')).toBe(true);
  });
});

describe.each(ENGINE_CASES)('$engine case', c => {
  it('samples its operator kind and has a ready status for it', () => {
    const sample = readManifest(c.sampleFile);
    expect(sample.kind).toBe(c.kind);
    expect(c.kinds).toContain(c.kind);
    expect(c.resource.split('.').slice(1).join('.')).toBe(
      sample.apiVersion.split('/')[0],
    );
    const status = c.readyStatus(sample);
    expect(Object.keys(status).length).toBeGreaterThan(0);
  });
});

describe('the conformance engine cases', () => {
  it('cover every engine an adapter serves, each from its adapter folder\'s operator', () => {
    expect(ENGINE_CASES.map(c => c.engine).sort()).toEqual([...new Set(adapters.map(a => a.engine))].sort());
    for (const c of ENGINE_CASES)
      expect([c.engine, c.operatorDir]).toEqual([c.engine, adapters.find(a => a.engine === c.engine)!.id]);
  });
});
