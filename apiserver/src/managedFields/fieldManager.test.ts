import { describe, expect, it } from '@jest/globals';
import { applyConfiguration, BEFORE_FIRST_APPLY, recordUpdate, type ApplyOutcome } from './fieldManager';
import { joinPath } from './fieldPaths';
import { fromFieldsV1, toFieldsV1 } from './fieldsV1';
import { decodeManagedFields, encodeManagedFields, type Manager } from './managers';

const T1 = '2026-12-01T10:00:00Z';
const T2 = '2026-12-01T11:00:00Z';
const p = (...s: string[]) => joinPath(s);
const instance = (spec: Record<string, unknown>, labels?: Record<string, string>) => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'orders', namespace: 'team-a', uid: 'u1', resourceVersion: '7', ...(labels ? { labels } : {}) },
  spec,
  status: { phase: 'Ready' },
});
const fieldsOf = (managers: Manager[], manager: string, operation = 'Apply') =>
  [...(managers.find(m => m.manager === manager && m.operation === operation)?.fields ?? [])].sort();
const applied = (o: ApplyOutcome) => {
  if ('conflicts' in o) throw new Error(`unexpected conflicts: ${o.conflicts.map(c => c.path).join(', ')}`);
  return o;
};

describe('recordUpdate (create, PUT, merge and JSON patches)', () => {
  it('gives a creator every field it set, maps included, and nothing of status or bookkeeping', () => {
    const managers = recordUpdate(undefined, instance({ engine: 'postgresql', replicas: 3 }, { app: 'orders' }), [], 'kubectl-create', T1);
    expect(managers).toEqual([{ manager: 'kubectl-create', operation: 'Update', apiVersion: 'dbaas.platform.dev/v1alpha1', time: T1, fields: expect.any(Set) }]);
    expect(toFieldsV1(managers[0].fields)).toEqual({
      'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { '.': {}, 'f:engine': {}, 'f:replicas': {} },
    });
  });

  it('moves a changed field to the writer, drops removed fields from everyone, and changes nothing for a no-op', () => {
    const created = recordUpdate(undefined, instance({ engine: 'postgresql', replicas: 3, version: '16' }), [], 'creator', T1);
    const scaled = recordUpdate(instance({ engine: 'postgresql', replicas: 3, version: '16' }), instance({ engine: 'postgresql', replicas: 5 }), created, 'kubectl-scale', T2);
    expect(fieldsOf(scaled, 'kubectl-scale', 'Update')).toEqual([p('spec', 'replicas')]);
    expect(fieldsOf(scaled, 'creator', 'Update')).not.toContain(p('spec', 'replicas'));
    expect(fieldsOf(scaled, 'creator', 'Update')).not.toContain(p('spec', 'version'));
    expect(scaled.find(m => m.manager === 'creator')!.time).toBe(T1);
    const again = recordUpdate(instance({ engine: 'postgresql', replicas: 5 }), instance({ engine: 'postgresql', replicas: 5 }), scaled, 'kubectl-scale', '2030-01-01T00:00:00Z');
    expect(encodeManagedFields(again)).toEqual(encodeManagedFields(scaled));
  });
});

describe('applyConfiguration (server-side apply)', () => {
  const live = instance({ engine: 'postgresql', replicas: 3, version: '16' });

  it('an apply to a new object owns exactly the leaves of its config', () => {
    const out = applied(applyConfiguration(undefined, instance({ engine: 'postgresql', replicas: 3 }, { app: 'x' }), [], 'kubectl', false, T1));
    expect(fieldsOf(out.managers, 'kubectl')).toEqual([p('metadata', 'labels', 'app'), p('spec', 'engine'), p('spec', 'replicas')].sort());
    expect(toFieldsV1(out.managers[0].fields)).toEqual({ 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:engine': {}, 'f:replicas': {} } });
  });

  it('the same config applied twice changes neither the object nor the record', () => {
    const config = instance({ engine: 'postgresql', replicas: 5 });
    const first = applied(applyConfiguration(live, config, recordUpdate(undefined, live, [], 'creator', T1), 'flux', true, T1));
    expect(first.changed).toBe(true);
    const merged = { ...live, spec: first.object.spec };
    const second = applied(applyConfiguration(merged, config, first.managers, 'flux', false, T2));
    expect(second.changed).toBe(false);
    expect(encodeManagedFields(second.managers)).toEqual(encodeManagedFields(first.managers));
  });

  it('a changed field another manager owns is a conflict naming both; force takes it over', () => {
    const managers = [...recordUpdate(undefined, live, [], 'creator', T1)];
    const owned = applied(applyConfiguration(live, instance({ replicas: 3 }), managers, 'team-a', false, T1));
    const liveOwned = { ...live };
    const refused = applyConfiguration(liveOwned, instance({ replicas: 4, version: '16' }), owned.managers, 'flux', false, T2);
    expect('conflicts' in refused && refused.conflicts.map(c => [c.manager.manager, c.path])).toEqual([
      ['creator', p('spec', 'replicas')],
      ['team-a', p('spec', 'replicas')],
    ]);
    const forced = applied(applyConfiguration(liveOwned, instance({ replicas: 4, version: '16' }), owned.managers, 'flux', true, T2));
    expect(forced.object.spec).toMatchObject({ replicas: 4 });
    expect(fieldsOf(forced.managers, 'team-a')).toEqual([]);
    expect(fieldsOf(forced.managers, 'creator', 'Update')).not.toContain(p('spec', 'replicas'));
    // the same value is shared, not taken: version stays the creator's too
    expect(fieldsOf(forced.managers, 'creator', 'Update')).toContain(p('spec', 'version'));
    expect(fieldsOf(forced.managers, 'flux')).toEqual([p('spec', 'replicas'), p('spec', 'version')]);
  });

  it('a field dropped from the config is removed, unless another manager still owns it', () => {
    const start = applied(applyConfiguration(undefined, instance({ engine: 'postgresql', replicas: 3, version: '16' }, { a: '1', b: '2' }), [], 'flux', false, T1));
    const obj = { ...live, metadata: { ...live.metadata, labels: { a: '1', b: '2' } } };
    const shared = applied(applyConfiguration(obj, instance({ version: '16' }, { b: '2' }), start.managers, 'team-b', false, T1));
    const dropped = applied(applyConfiguration(obj, instance({ engine: 'postgresql', replicas: 3 }), shared.managers, 'flux', false, T2));
    // version and label b are team-b's too: kept; label a was flux's alone: gone
    expect(dropped.object.spec).toEqual({ engine: 'postgresql', replicas: 3, version: '16' });
    expect((dropped.object.metadata as any).labels).toEqual({ b: '2' });
    expect(fieldsOf(dropped.managers, 'flux')).toEqual([p('spec', 'engine'), p('spec', 'replicas')]);
  });

  it('an object with no record gets one under before-first-apply, which an apply then conflicts with', () => {
    const refused = applyConfiguration(live, instance({ replicas: 5 }), [], 'flux', false, T1);
    expect('conflicts' in refused && refused.conflicts.map(c => c.manager.manager)).toEqual([BEFORE_FIRST_APPLY]);
    const agreeing = applied(applyConfiguration(live, instance({ replicas: 3 }), [], 'flux', false, T1));
    expect(agreeing.changed).toBe(false);
    expect(agreeing.managers.map(m => m.manager).sort()).toEqual([BEFORE_FIRST_APPLY, 'flux']);
  });

  it('kubectl takes over what its client-side apply set, as the last-applied copy shows, without force', () => {
    const lastApplied = JSON.stringify(instance({ engine: 'postgresql', replicas: 3 }));
    const csa = { ...live, metadata: { ...live.metadata, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } } };
    const managers = recordUpdate(undefined, csa, [], 'kubectl-client-side-apply', T1);
    const out = applied(applyConfiguration(csa, instance({ engine: 'postgresql', replicas: 4 }), managers, 'kubectl', false, T2));
    expect(out.object.spec).toMatchObject({ replicas: 4 });
    // and keeps the copy in step, so a later client-side apply diffs against this config
    expect(JSON.parse((out.object.metadata as any).annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.replicas).toBe(4);
    // another manager gets no such pass
    expect('conflicts' in applyConfiguration(csa, instance({ replicas: 4 }), managers, 'flux', false, T2)).toBe(true);
  });
});

describe('managedFields encoding', () => {
  it('round-trips FieldsV1, marking a map that is itself a member', () => {
    const set = new Set([p('spec'), p('spec', 'replicas'), p('metadata', 'labels', 'app.kubernetes.io/name')]);
    const v1 = toFieldsV1(set);
    expect(v1).toEqual({ 'f:metadata': { 'f:labels': { 'f:app.kubernetes.io/name': {} } }, 'f:spec': { '.': {}, 'f:replicas': {} } });
    expect(fromFieldsV1(v1)).toEqual(set);
    expect(fromFieldsV1({ 'f:spec': { 'k:{"name":"a"}': {} } })).toBeUndefined();
  });

  it('refuses entries kube-apiserver would not decode, and caps Update managers at ten', () => {
    expect(decodeManagedFields([{ manager: 'm', operation: 'Delete', fieldsType: 'FieldsV1', fieldsV1: {} }])).toBeUndefined();
    expect(decodeManagedFields([{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV2', fieldsV1: {} }])).toBeUndefined();
    expect(decodeManagedFields([{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', time: 'yesterday', fieldsV1: {} }])).toBeUndefined();
    let managers: Manager[] = [];
    for (let i = 0; i < 12; i++) {
      managers = recordUpdate(instance({ replicas: i }), instance({ replicas: i + 1 }), managers, `m${i}`, `2026-12-01T10:00:${String(i).padStart(2, '0')}Z`);
      managers.push({ manager: `keep${i}`, operation: 'Update', apiVersion: 'dbaas.platform.dev/v1alpha1', time: `2026-12-01T09:00:${String(i).padStart(2, '0')}Z`, fields: new Set([p('spec', `f${i}`)]) });
    }
    const entries = encodeManagedFields(managers);
    expect(entries.filter(e => e.operation === 'Update')).toHaveLength(10);
    expect(entries.map(e => e.manager)).toContain('ancient-changes');
  });
});

describe('applyConfiguration after a client-side apply record was handed to kubectl', () => {
  it('keeps the maps the migrated record owns while the config still sets fields below them', () => {
    const live = instance({ engine: 'mariadb', topology: 'replication', replicas: 2 }, { tier: 'gold' });
    // what csaupgrade makes of kubectl-client-side-apply's Update record: an Apply record owning maps too
    const migrated = recordUpdate(undefined, live, [], 'kubectl', T1).map(m => ({ ...m, operation: 'Apply' as const }));
    const out = applied(applyConfiguration(live, instance({ engine: 'mariadb', topology: 'replication', replicas: 3 }), migrated, 'kubectl', false, T2));
    expect(out.object.spec).toEqual({ engine: 'mariadb', topology: 'replication', replicas: 3 });
    expect((out.object.metadata as any)?.labels ?? {}).toEqual({});
  });
});
