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

  it('derives the same UUID-shaped uid for a child on every replica, another for another child', () => {
    expect(childUid('u1', 'daily')).toBe(childUid('u1', 'daily'));
    expect(childUid('u1', 'daily')).not.toBe(childUid('u1', 'weekly'));
    expect(childUid('u1', 'daily')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
