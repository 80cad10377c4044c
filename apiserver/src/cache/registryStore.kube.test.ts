import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { DATABASE_PHASES } from '@internal/plugin-databases-common';
import { adapters } from '../adapters/registry';
import type { KubeObject, ResourceType } from '../adapters/types';
import { kubeConfigForServer } from '../kube/createKubeConfig';
import { kubeInformerFactory } from '../kube/kubeInformerFactory';
import { resourceName } from '../kube/resourcePath';
import { CRD_TYPE } from './crdServesKind';
import { InformerInstanceStore } from './InformerInstanceStore';
import { crdFor } from './testAdapters';
import { FakeKubeApi, until } from './testKubeApi';

// apiserver/src/cache -> ../shared/operators (the repo's sibling folder)
const OPERATORS = path.resolve(__dirname, '../../../../shared/operators');

/** Every upstream sample object of a kind some registered adapter serves. */
function samples(): KubeObject[] {
  const out: KubeObject[] = [];
  for (const operator of fs.readdirSync(OPERATORS)) {
    const dir = path.join(OPERATORS, operator, 'samples');
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.yaml'))) {
      for (const doc of parseAllDocuments(
        fs.readFileSync(path.join(dir, file), 'utf8'),
      )) {
        const o = doc.toJS() as KubeObject | null;
        const group = o?.apiVersion?.split('/')[0];
        if (
          o?.metadata?.name &&
          adapters.some(a =>
            a.kinds.some(k => k.group === group && k.kind === o.kind),
          )
        ) {
          out.push(o);
        }
      }
    }
  }
  return out;
}

describe('InformerInstanceStore with the real adapter registry', () => {
  const kinds = adapters.flatMap(a => a.kinds);
  const related = [
    ...new Map(
      adapters.flatMap(a => a.relatedTypes).map(t => [resourceName(t), t]),
    ).values(),
  ];
  const api = new FakeKubeApi(related, kinds);
  const objects = samples();
  let store: InformerInstanceStore;

  beforeAll(async () => {
    await new Promise<void>(r => api.server.listen(0, '127.0.0.1', r));
    for (const k of kinds) {
      api.put(CRD_TYPE, crdFor(k, '0'));
    }
    // one namespace per sample so that equal sample names do not collide
    objects.forEach((o, i) => {
      const kind = kinds.find(
        k => o.apiVersion === `${k.group}/${k.version}` && k.kind === o.kind,
      ) as ResourceType | undefined;
      if (kind) {
        api.put(kind, {
          ...o,
          metadata: { ...o.metadata, namespace: `ns-${i}`, uid: `uid-${i}` },
        });
      }
    });
    store = new InformerInstanceStore({
      adapters,
      informerFactory: kubeInformerFactory(kubeConfigForServer(api.url())),
      batchWindowMs: 10,
    });
    store.start();
    await until(() => store.hasSynced(), 'sync', 10_000);
  });

  afterAll(async () => {
    store.stop();
    api.server.closeAllConnections();
    await new Promise(r => api.server.close(r));
  });

  it('has upstream samples to work with', () => {
    expect(objects.length).toBeGreaterThan(5);
  });

  it('serves one instance per served-version sample, with the source uid, kind and a known phase', () => {
    const served = store.list();
    const servedVersion = objects.filter(o =>
      kinds.some(
        k => o.apiVersion === `${k.group}/${k.version}` && k.kind === o.kind,
      ),
    );
    expect(servedVersion.length).toBeGreaterThan(3);
    expect(served).toHaveLength(servedVersion.length);
    for (const instance of served) {
      const i = Number(instance.metadata.namespace!.slice(3));
      expect(instance.metadata.uid).toBe(`uid-${i}`);
      expect(instance.metadata.name).toBe(objects[i].metadata!.name);
      expect(instance.status?.source.kind).toBe(objects[i].kind);
      expect(DATABASE_PHASES).toContain(instance.status?.phase);
      expect(instance.status?.reason).not.toBe('ProjectionFailed');
    }
  });

  it('reports every engine installed with its instance count', () => {
    const engines = store.engines();
    expect(engines.map(e => e.metadata.name).sort()).toEqual(
      adapters.map(a => a.engine).sort(),
    );
    expect(engines.every(e => e.status.installed)).toBe(true);
    expect(engines.reduce((n, e) => n + e.status.instances, 0)).toBe(
      store.list().length,
    );
    expect(store.problems()).toEqual([]);
  });

  it('offers what each engine can be created as: topologies, versions and defaults from its write side', () => {
    for (const engine of store.engines()) {
      const write = adapters.find(a => a.engine === engine.spec.engine)!.write!;
      expect(engine.spec.topologies).toEqual(write.topologies);
      const defaults = write.defaults(write.defaultTopology);
      expect(engine.spec.defaults).toMatchObject({
        engine: engine.spec.engine,
        topology: write.defaultTopology,
        version: defaults.version,
        replicas: defaults.replicas,
        storage: defaults.storage,
      });
      expect(engine.spec.versions).toContain(defaults.version);
    }
  });
});
