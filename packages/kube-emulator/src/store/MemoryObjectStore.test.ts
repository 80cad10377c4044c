import { describe, expect, it } from '@jest/globals';
import { MemoryObjectStore } from './MemoryObjectStore';
import { type ResourceDefinition, type StoreEvent, StoreError } from './types';

const WIDGETS: ResourceDefinition = {
  group: 'example.com',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
  listKind: 'WidgetList',
  singular: 'widget',
  namespaced: true,
  statusSubresource: true,
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', minimum: 0 },
          size: { type: 'string' },
        },
        required: ['replicas'],
      },
      status: { type: 'object', properties: { phase: { type: 'string' } } },
    },
  },
};
const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps' };
const NAMESPACES = { group: '', version: 'v1', plural: 'namespaces' };

function newStore(
  opts: ConstructorParameters<typeof MemoryObjectStore>[0] = {},
) {
  const store = new MemoryObjectStore({
    now: () => new Date('2025-05-01T10:00:00.123Z'),
    ...opts,
  });
  store.defineResource(WIDGETS);
  return store;
}

const widget = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1 },
  ...extra,
});

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error('expected a StoreError');
}

describe('MemoryObjectStore', () => {
  it('sets uid, second-precision creationTimestamp, generation and increasing string resourceVersions on create', () => {
    const store = newStore();
    const before = store.currentRV();
    expect(before).toBeGreaterThanOrEqual(1000);
    const a = store.create(WIDGETS, widget('a'));
    const b = store.create(WIDGETS, widget('b'));
    expect(a.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.metadata.uid).not.toBe(b.metadata.uid);
    expect(a.metadata.creationTimestamp).toBe('2025-05-01T10:00:00Z');
    expect(a.metadata.generation).toBe(1);
    expect(a.metadata.resourceVersion).toBe(String(before + 1));
    expect(b.metadata.resourceVersion).toBe(String(before + 2));
    expect(store.get(WIDGETS, 'default', 'a')).toEqual(a);
  });

  it('rejects duplicates with 409 AlreadyExists and unknown objects with 404 NotFound in kube wording', () => {
    const store = newStore();
    store.create(WIDGETS, widget('a'));
    const dup = storeError(() => store.create(WIDGETS, widget('a')));
    expect([dup.code, dup.reason, dup.message]).toEqual([
      409,
      'AlreadyExists',
      'widgets.example.com "a" already exists',
    ]);
    const missing = storeError(() => store.delete(WIDGETS, 'default', 'nope'));
    expect([missing.code, missing.reason, missing.message]).toEqual([
      404,
      'NotFound',
      'widgets.example.com "nope" not found',
    ]);
    const core = storeError(() => store.delete(CONFIGMAPS, 'default', 'nope'));
    expect(core.message).toBe('configmaps "nope" not found');
  });

  it('fails a stale resourceVersion with 409 Conflict and allows an update without one', () => {
    const store = newStore();
    const a = store.create(WIDGETS, widget('a'));
    const updated = store.update(WIDGETS, { ...a, spec: { replicas: 2 } });
    const stale = storeError(() =>
      store.update(WIDGETS, { ...a, spec: { replicas: 3 } }),
    );
    expect(stale.code).toBe(409);
    expect(stale.message).toBe(
      'Operation cannot be fulfilled on widgets.example.com "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const { resourceVersion: _, ...meta } = updated.metadata;
    expect(
      store.update(WIDGETS, {
        ...updated,
        metadata: meta,
        spec: { replicas: 4 },
      }).spec,
    ).toEqual({ replicas: 4 });
  });

  it('bumps generation on spec changes only and separates status from the main resource', () => {
    const store = newStore();
    const a = store.create(
      WIDGETS,
      widget('a', { status: { phase: 'ignored on create' } }),
    );
    expect(a.status).toBeUndefined();
    const withStatus = store.update(
      WIDGETS,
      { ...a, spec: { replicas: 9 }, status: { phase: 'Ready' } },
      { subresource: 'status' },
    );
    expect(withStatus.status).toEqual({ phase: 'Ready' });
    expect(withStatus.spec).toEqual({ replicas: 1 });
    expect(withStatus.metadata.generation).toBe(1);
    const specChange = store.update(WIDGETS, {
      ...withStatus,
      spec: { replicas: 2 },
      status: { phase: 'ignored' },
    });
    expect(specChange.metadata.generation).toBe(2);
    expect(specChange.status).toEqual({ phase: 'Ready' });
    const labelChange = store.update(WIDGETS, {
      ...specChange,
      metadata: { ...specChange.metadata, labels: { a: 'b' } },
    });
    expect(labelChange.metadata.generation).toBe(2);
  });

  it('does not bump the resourceVersion nor emit an event for a no-op update', () => {
    const store = newStore();
    const a = store.create(WIDGETS, widget('a'));
    const events: StoreEvent[] = [];
    store.watch(undefined, e => events.push(e));
    const same = store.update(WIDGETS, a);
    expect(same.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect(events).toEqual([]);
  });

  it('keeps objects with finalizers until the last finalizer is removed', () => {
    const store = newStore();
    const a = store.create(
      WIDGETS,
      widget('a', {
        metadata: { name: 'a', namespace: 'default', finalizers: ['x/y'] },
      }),
    );
    const events: StoreEvent[] = [];
    store.watch(Number(a.metadata.resourceVersion), e => events.push(e));
    const marked = store.delete(WIDGETS, 'default', 'a');
    expect(marked.metadata.deletionTimestamp).toBe('2025-05-01T10:00:00Z');
    expect(store.get(WIDGETS, 'default', 'a')).toBeDefined();
    const added = storeError(() =>
      store.update(WIDGETS, {
        ...marked,
        metadata: { ...marked.metadata, finalizers: ['x/y', 'z'] },
      }),
    );
    expect(added.code).toBe(422);
    expect(added.details?.causes).toEqual([
      expect.objectContaining({ field: 'metadata.finalizers' }),
    ]);
    store.update(WIDGETS, {
      ...marked,
      metadata: { ...marked.metadata, finalizers: [] },
    });
    expect(store.get(WIDGETS, 'default', 'a')).toBeUndefined();
    expect(events.map(e => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(Number(events[1].object.metadata.resourceVersion)).toBe(
      events[1].rv,
    );
  });

  it('checks delete preconditions', () => {
    const store = newStore();
    store.create(WIDGETS, widget('a'));
    const err = storeError(() =>
      store.delete(WIDGETS, 'default', 'a', {
        preconditions: { uid: 'other' },
      }),
    );
    expect(err.code).toBe(409);
    expect(err.message).toContain(
      'Precondition failed: UID in precondition: other',
    );
  });

  it('requires the namespace to exist, refuses writes into a terminating one, and deletes its content with it', () => {
    const store = newStore();
    const missing = storeError(() =>
      store.create(WIDGETS, {
        ...widget('a'),
        metadata: { name: 'a', namespace: 'team-a' },
      }),
    );
    expect([missing.code, missing.message]).toEqual([
      404,
      'namespaces "team-a" not found',
    ]);
    store.create(NAMESPACES, { metadata: { name: 'team-a' } });
    store.create(WIDGETS, {
      ...widget('a'),
      metadata: { name: 'a', namespace: 'team-a' },
    });
    store.create(WIDGETS, {
      ...widget('held'),
      metadata: { name: 'held', namespace: 'team-a', finalizers: ['f'] },
    });
    store.delete(NAMESPACES, undefined, 'team-a');
    expect(store.get(NAMESPACES, undefined, 'team-a')?.status).toEqual({
      phase: 'Terminating',
    });
    expect(store.list(WIDGETS, 'team-a').map(o => o.metadata.name)).toEqual([
      'held',
    ]);
    const refused = storeError(() =>
      store.create(WIDGETS, {
        ...widget('b'),
        metadata: { name: 'b', namespace: 'team-a' },
      }),
    );
    expect(refused.code).toBe(403);
    const held = store.get(WIDGETS, 'team-a', 'held')!;
    store.update(WIDGETS, {
      ...held,
      metadata: { ...held.metadata, finalizers: [] },
    });
    expect(store.get(NAMESPACES, undefined, 'team-a')).toBeUndefined();
  });

  it('validates against the schema with kube-style causes', () => {
    const store = newStore();
    const err = storeError(() =>
      store.create(
        WIDGETS,
        widget('a', { spec: { replicas: 'three', size: 3 } }),
      ),
    );
    expect(err.code).toBe(422);
    expect(err.reason).toBe('Invalid');
    expect(err.message).toMatch(/^Widget\.example\.com "a" is invalid: \[/);
    expect(err.message).toContain(
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    );
    const fields = (err.details?.causes as Array<{ field: string }>)
      .map(c => c.field)
      .sort();
    expect(fields).toEqual(['spec.replicas', 'spec.size']);
    const badName = storeError(() =>
      store.create(WIDGETS, widget('Not_Valid')),
    );
    expect(badName.details?.causes).toEqual([
      expect.objectContaining({
        field: 'metadata.name',
        reason: 'FieldValueInvalid',
      }),
    ]);
  });

  it('limits annotations to 256 KiB in total, as kube does', () => {
    const store = newStore();
    const big = {
      metadata: {
        name: 'big',
        namespace: 'default',
        annotations: { a: 'x'.repeat(256 * 1024) },
      },
    };
    const err = storeError(() => store.create(CONFIGMAPS, big));
    expect(err.details?.causes).toEqual([
      expect.objectContaining({
        field: 'metadata.annotations',
        reason: 'FieldValueTooLong',
      }),
    ]);
    expect(
      store.create(CONFIGMAPS, {
        metadata: { ...big.metadata, annotations: { a: 'x'.repeat(1000) } },
      }).metadata.name,
    ).toBe('big');
  });

  it('prunes unknown fields instead of rejecting them', () => {
    const store = newStore();
    const a = store.create(
      WIDGETS,
      widget('a', { spec: { replicas: 1, unknown: true }, extra: 1 }),
    );
    expect(a.spec).toEqual({ replicas: 1 });
    expect(a).not.toHaveProperty('extra');
  });

  it('replays history in RV order and answers 410 Expired for resourceVersions older than the history', () => {
    const store = newStore({ historyLimit: 3 });
    const start = store.currentRV();
    for (const n of ['a', 'b', 'c', 'd']) store.create(WIDGETS, widget(n));
    const err = storeError(() => store.watch(start, () => {}));
    expect([err.code, err.reason, err.message]).toEqual([
      410,
      'Expired',
      `too old resource version: ${start} (${start + 1})`,
    ]);
    const seen: number[] = [];
    store.watch(start + 1, e => seen.push(e.rv));
    expect(seen).toEqual([start + 2, start + 3, start + 4]);
  });

  it('delivers events in RV order even when a subscriber writes while handling one', () => {
    const store = newStore();
    const order: string[] = [];
    store.watch(undefined, e => {
      if (e.type === 'ADDED' && e.object.metadata.name === 'a')
        store.create(WIDGETS, widget('b'));
    });
    store.watch(undefined, e =>
      order.push(`${e.object.metadata.name}@${e.rv}`),
    );
    store.create(WIDGETS, widget('a'));
    const rvs = order.map(s => Number(s.split('@')[1]));
    expect(order.map(s => s.split('@')[0])).toEqual(['a', 'b']);
    expect(rvs[1]).toBeGreaterThan(rvs[0]);
  });

  it('reconstructs past states for listAt', () => {
    const store = newStore();
    const a = store.create(WIDGETS, widget('a'));
    const at = store.currentRV();
    store.update(WIDGETS, { ...a, spec: { replicas: 5 } });
    store.create(WIDGETS, widget('b'));
    store.delete(WIDGETS, 'default', 'a');
    expect(
      store
        .listAt(WIDGETS, 'default', at)
        .map(o => [o.metadata.name, (o.spec as any).replicas]),
    ).toEqual([['a', 1]]);
    expect(store.list(WIDGETS, 'default').map(o => o.metadata.name)).toEqual([
      'b',
    ]);
  });

  it('fills generateName and keeps dry runs out of storage and history', () => {
    const store = newStore();
    const rv = store.currentRV();
    const dry = store.create(
      WIDGETS,
      { ...widget(''), metadata: { generateName: 'w-', namespace: 'default' } },
      { dryRun: true },
    );
    expect(dry.metadata.name).toMatch(/^w-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(store.currentRV()).toBe(rv);
    expect(store.list(WIDGETS)).toEqual([]);
  });

  it('serves secrets with stringData folded into base64 data and services with a cluster IP', () => {
    const store = newStore();
    const secret = store.create(
      { group: '', version: 'v1', plural: 'secrets' },
      {
        metadata: { name: 's', namespace: 'default' },
        stringData: { password: 'pw' },
      },
    );
    expect(secret.data).toEqual({
      password: Buffer.from('pw').toString('base64'),
    });
    expect(secret.type).toBe('Opaque');
    const svc = store.create(
      { group: '', version: 'v1', plural: 'services' },
      {
        metadata: { name: 'svc', namespace: 'default' },
        spec: { ports: [{ port: 80 }] },
      },
    );
    expect((svc.spec as any).clusterIP).toMatch(/^10\.96\.\d+\.\d+$/);
  });
});
