import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../adapters/types';
import { childUid, expandingInformer } from './expandingInformer';
import type { ResourceInformer } from './ResourceInformer';

/** An inner informer driven by hand. */
function fakeInner() {
  const cbs: Record<string, Array<(o: any) => void>> = {};
  const inner: ResourceInformer = {
    on: (verb: string, cb: (o: any) => void) => void (cbs[verb] ??= []).push(cb),
    start: async () => {},
    stop: async () => {},
    get: () => undefined,
    list: () => [],
  } as ResourceInformer;
  return { inner, fire: (verb: string, o: KubeObject) => cbs[verb]?.forEach(cb => cb(o)) };
}

const cluster = (rv: string, entries: string[], extra: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'db', namespace: 'ns', uid: 'u1', resourceVersion: rv },
  spec: { backupSchedules: entries.map(name => ({ name, schedule: '0 1 * * *', ...extra })) },
});
const expand = (p: KubeObject): KubeObject[] =>
  ((p.spec as any).backupSchedules as any[]).map(e => ({
    metadata: { name: `${p.metadata!.name}-${e.name}`, namespace: p.metadata!.namespace, uid: childUid(p.metadata!.uid!, e.name) },
    spec: e,
  }));

describe('expandingInformer', () => {
  it('tells each entry as an object of its own, at its parent\'s resourceVersion, and only what changed', () => {
    const { inner, fire } = fakeInner();
    const informer = expandingInformer(inner, expand);
    const seen: string[] = [];
    for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb, (o: KubeObject) => seen.push(`${verb} ${o.metadata!.name}@${o.metadata!.resourceVersion}`));
    fire('add', cluster('10', ['daily', 'weekly']));
    fire('update', cluster('11', ['daily', 'weekly'])); // the parent's status moved: nothing about its entries
    fire('update', cluster('12', ['daily', 'hourly'], { enabled: true }));
    expect(informer.list('ns').map(o => `${o.metadata!.name}@${o.metadata!.resourceVersion}`)).toEqual(['db-daily@12', 'db-hourly@12']);
    expect(informer.get('db-daily', 'ns')?.spec).toEqual({ name: 'daily', schedule: '0 1 * * *', enabled: true });
    fire('delete', cluster('13', ['daily', 'hourly']));
    expect(seen).toEqual(['add db-daily@10', 'add db-weekly@10', 'delete db-weekly@12', 'update db-daily@12', 'add db-hourly@12', 'delete db-daily@13', 'delete db-hourly@13']);
    expect(informer.list()).toEqual([]);
  });

  it('serves one child for a name two parents give alike: the older parent\'s, then the other\'s as a new object', () => {
    const { inner, fire } = fakeInner();
    const informer = expandingInformer(inner, expand);
    const seen: string[] = [];
    for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb, (o: KubeObject) => seen.push(`${verb} ${o.metadata!.name}@${o.metadata!.resourceVersion} ${o.metadata!.uid === childUid('u-ab', 'c') ? 'of a-b' : 'of a'}`));
    const parent = (name: string, uid: string, created: string, rv: string, entries: string[]): KubeObject => ({
      metadata: { name, namespace: 'ns', uid, resourceVersion: rv, creationTimestamp: created },
      spec: { backupSchedules: entries.map(e => ({ name: e, schedule: '0 1 * * *' })) },
    });
    // a-b (older) with entry c, a (newer) with entry b-c: both name a-b-c
    fire('add', parent('a', 'u-a', '2026-02-01T00:00:00Z', '20', ['b-c']));
    fire('add', parent('a-b', 'u-ab', '2026-01-01T00:00:00Z', '21', ['c']));
    expect(informer.list('ns')).toHaveLength(1);
    expect(informer.get('a-b-c', 'ns')?.metadata?.uid).toBe(childUid('u-ab', 'c'));
    // the newer parent's change to its own child tells nothing: it is not served
    fire('update', { ...parent('a', 'u-a', '2026-02-01T00:00:00Z', '22', []), spec: { backupSchedules: [{ name: 'b-c', schedule: '0 2 * * *' }] } });
    // the older one drops its entry: the other takes the name, as a new object
    fire('update', parent('a-b', 'u-ab', '2026-01-01T00:00:00Z', '23', []));
    expect(informer.get('a-b-c', 'ns')?.metadata?.uid).toBe(childUid('u-a', 'b-c'));
    expect(informer.get('a-b-c', 'ns')?.spec).toEqual({ name: 'b-c', schedule: '0 2 * * *' });
    expect(seen).toEqual(['add a-b-c@20 of a', 'delete a-b-c@21 of a', 'add a-b-c@21 of a-b', 'delete a-b-c@23 of a-b', 'add a-b-c@23 of a']);
  });

  it('derives the same UUID-shaped uid for a child on every replica, another for another child', () => {
    expect(childUid('u1', 'daily')).toBe(childUid('u1', 'daily'));
    expect(childUid('u1', 'daily')).not.toBe(childUid('u1', 'weekly'));
    expect(childUid('u1', 'daily')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
