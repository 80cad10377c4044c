import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { InstanceIndex } from './InstanceIndex';

const inst = (namespace: string, name: string, labels?: Record<string, string>): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { namespace, name, ...(labels ? { labels } : {}) },
  spec: { engine: 'mariadb' },
});

/** An index over a plain map, changed the way the store changes it. */
function fixture() {
  const served = new Map<string, Map<string, DatabaseInstance>>();
  const index = new InstanceIndex(ns => served.get(ns)?.values() ?? [], () => served.keys());
  const put = (...items: DatabaseInstance[]) => {
    for (const i of items) {
      const ns = i.metadata.namespace!;
      const byName = served.get(ns) ?? new Map();
      const old = byName.get(i.metadata.name!);
      byName.set(i.metadata.name!, i);
      served.set(ns, byName);
      index.changed(ns, old ? [old] : [], [i]);
    }
  };
  const remove = (ns: string, name: string) => {
    const old = served.get(ns)?.get(name);
    served.get(ns)?.delete(name);
    if (served.get(ns)?.size === 0) served.delete(ns);
    index.changed(ns, old ? [old] : [], []);
  };
  return { index, put, remove };
}

const names = (items: DatabaseInstance[]) => items.map(i => `${i.metadata.namespace}/${i.metadata.name}`);

describe('InstanceIndex', () => {
  it('lists by namespace then name, per namespace and across all', () => {
    const { index, put } = fixture();
    put(inst('b', 'z'), inst('a', 'y'), inst('b', 'a'), inst('a', 'b'));
    expect(names(index.list())).toEqual(['a/b', 'a/y', 'b/a', 'b/z']);
    expect(names(index.list('b'))).toEqual(['b/a', 'b/z']);
    expect(index.list('none')).toEqual([]);
  });

  it('hands out the same array until something changes, and never changes an array it handed out', () => {
    const { index, put, remove } = fixture();
    put(inst('a', 'x'), inst('b', 'y'));
    const all = index.list();
    const a = index.list('a');
    expect(index.list()).toBe(all);
    put(inst('a', 'w'));
    expect(names(all)).toEqual(['a/x', 'b/y']);
    expect(names(index.list())).toEqual(['a/w', 'a/x', 'b/y']);
    expect(index.list('b')).toEqual([all[1]]);
    remove('a', 'x');
    expect(names(a)).toEqual(['a/x']);
    expect(names(index.list('a'))).toEqual(['a/w']);
  });

  it('finds instances by label, following relabels and deletes', () => {
    const { index, put, remove } = fixture();
    put(inst('b', 'one', { app: 'orders' }), inst('a', 'two', { app: 'orders', tier: 'db' }), inst('a', 'three', { app: 'search' }));
    expect(names(index.withLabel('app', 'orders'))).toEqual(['a/two', 'b/one']);
    expect(names(index.withLabel('app', 'orders', 'b'))).toEqual(['b/one']);
    expect(index.withLabel('app', 'nothing')).toEqual([]);
    put(inst('a', 'two', { app: 'search' }));
    expect(names(index.withLabel('app', 'orders'))).toEqual(['b/one']);
    expect(names(index.withLabel('app', 'search'))).toEqual(['a/three', 'a/two']);
    expect(index.withLabel('tier', 'db')).toEqual([]);
    remove('b', 'one');
    expect(index.withLabel('app', 'orders')).toEqual([]);
  });
});
