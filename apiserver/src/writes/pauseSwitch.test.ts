import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { adapters } from '../adapters/registry';
import type { AdapterWriteSide, KubeObject, OperatorAdapter } from '../adapters/types';
import { emptyLookup } from '../adapters/__testUtils__/schemaDerivedFixtures';
import { updateThrough } from '../adapters/__testUtils__/updateThrough';
import { applyDefaults } from './defaults';
import { markerPause, specFieldPause } from './pauseSwitch';
import { prepareCreate } from './validateSpec';

type Writable = OperatorAdapter & { write: AdapterWriteSide };
const writables = adapters.filter((a): a is Writable => a.write !== undefined);

/** Where each operator documents its pause (docs/phases.md), as the object then carries it. */
const PAUSED_BY: Record<string, (o: KubeObject) => unknown> = {
  'mariadb-operator': o => o.spec?.suspend,
  'cloudnative-pg': o => o.metadata?.annotations?.['cnpg.io/hibernation'],
  'rabbitmq-cluster-operator': o => o.metadata?.labels?.['rabbitmq.com/pauseReconciliation'],
  eck: o => o.metadata?.annotations?.['eck.k8s.elastic.co/pause-orchestration'],
};
const PAUSED_VALUE: Record<string, unknown> = {
  'mariadb-operator': true,
  'cloudnative-pg': 'on',
  'rabbitmq-cluster-operator': 'true',
  eck: 'true',
};

function built(adapter: Writable, name = 'db'): KubeObject {
  const instance: DatabaseInstance = {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name, namespace: 'team-a' },
    spec: applyDefaults({ engine: adapter.engine }, adapter.write),
  };
  return adapter.write.toOperatorObject(instance);
}

const projected = (adapter: Writable, o: KubeObject) =>
  adapter.project(o, adapter.kinds.find(k => k.kind === o.kind)!, emptyLookup);

describe('spec.paused', () => {
  it('every operator either has a documented pause or none, and the table here says which', () => {
    expect(writables.filter(a => a.write.pause).map(a => a.operator).sort()).toEqual(
      Object.keys(PAUSED_BY).sort(),
    );
  });

  describe.each(writables.filter(a => a.write.pause).map(a => [a.operator, a] as const))('%s', (operator, adapter) => {
    it('true writes the operator\'s own pause, projects back as paused and as the Paused phase', () => {
      const { object, causes } = updateThrough(adapter, built(adapter), { paused: true });
      expect(causes).toBeUndefined();
      expect(PAUSED_BY[operator](object!)).toEqual(PAUSED_VALUE[operator]);
      const instance = projected(adapter, object!);
      expect(instance.spec.paused).toBe(true);
      expect(instance.status?.phase).toBe('Paused');
    });

    it('false lifts it again, leaving everything else as it was', () => {
      const current = built(adapter);
      const paused = updateThrough(adapter, current, { paused: true }).object!;
      const resumed = updateThrough(adapter, paused, { paused: false }).object!;
      expect(PAUSED_BY[operator](resumed)).toBeUndefined();
      expect(projected(adapter, resumed).spec.paused).toBeUndefined();
      expect(resumed).toEqual(current);
    });

    it('a spec that leaves paused out, or repeats it, changes no pause', () => {
      const paused = updateThrough(adapter, built(adapter), { paused: true }).object!;
      expect(updateThrough(adapter, paused, {}, ['paused']).object).toEqual(paused);
      expect(updateThrough(adapter, paused, { paused: true }).object).toEqual(paused);
    });

    it('a new instance can be created paused', () => {
      const prepared = prepareCreate(
        {
          apiVersion: 'dbaas.platform.dev/v1alpha1',
          kind: 'DatabaseInstance',
          metadata: { name: 'db', namespace: 'team-a' },
          spec: { engine: adapter.engine, paused: true },
        },
        adapters,
      );
      expect(prepared.causes).toEqual([]);
    });
  });

  describe.each(writables.filter(a => !a.write.pause).map(a => [a.operator, a] as const))('%s (no way to pause)', (operator, adapter) => {
    it('refuses paused: true with the field named and the reason, on update and on create', () => {
      const { causes } = updateThrough(adapter, built(adapter), { paused: true });
      expect(causes).toEqual([
        expect.objectContaining({
          reason: 'FieldValueForbidden',
          field: 'spec.paused',
          message: expect.stringContaining(`${operator} has no documented way to pause`),
        }),
      ]);
      const prepared = prepareCreate(
        {
          apiVersion: 'dbaas.platform.dev/v1alpha1',
          kind: 'DatabaseInstance',
          metadata: { name: 'db', namespace: 'team-a' },
          spec: { engine: adapter.engine, paused: true },
        },
        adapters,
      );
      expect(prepared.causes.map(c => c.field)).toEqual(['spec.paused']);
    });

    it('accepts paused: false (nothing to resume)', () => {
      const current = built(adapter);
      expect(updateThrough(adapter, current, { paused: false }).object).toEqual(current);
    });
  });

  it('a paused value that is not a boolean is named as such', () => {
    const adapter = writables[0];
    const prepared = prepareCreate(
      {
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        kind: 'DatabaseInstance',
        metadata: { name: 'db', namespace: 'team-a' },
        spec: { engine: adapter.engine, paused: 'yes' as never },
      },
      adapters,
    );
    expect(prepared.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueTypeInvalid', field: 'spec.paused' }),
    ]);
  });
});

describe('the other pauses an operator honours', () => {
  const eck = writables.find(a => a.operator === 'eck')!;
  const cnpg = writables.find(a => a.operator === 'cloudnative-pg')!;
  const annotated = (o: KubeObject, annotations: Record<string, string>): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, annotations: { ...o.metadata?.annotations, ...annotations } },
  });

  it('ECK managed: "false" (deprecated, stops everything) is Paused Unmanaged; a resume lifts it', () => {
    const o = annotated(built(eck), { 'eck.k8s.elastic.co/managed': 'false' });
    const instance = projected(eck, o);
    expect(instance.status).toMatchObject({ phase: 'Paused', reason: 'Unmanaged' });
    expect(instance.spec.paused).toBe(true);
    const resumed = updateThrough(eck, o, { paused: false }).object!;
    expect(resumed.metadata?.annotations?.['eck.k8s.elastic.co/managed']).toBeUndefined();
  });

  it("ECK pause-orchestration carries the OrchestrationPaused condition's words when ECK wrote it", () => {
    const o = {
      ...annotated(built(eck), { 'eck.k8s.elastic.co/pause-orchestration': 'true' }),
      // derived from ECK 3.5 pkg/controller/common/pause.go (PausedWithPendingChangesMessage)
      status: {
        phase: 'Ready',
        health: 'green',
        conditions: [
          {
            type: 'OrchestrationPaused',
            status: 'True',
            message: 'Orchestration paused via annotation; spec changes are pending and will be applied on resume',
          },
        ],
      },
    };
    expect(projected(eck, o).status).toMatchObject({
      phase: 'Paused',
      reason: 'OrchestrationPaused',
      message: expect.stringContaining('spec changes are pending'),
    });
  });

  it('CloudNativePG with its reconciliation loop disabled is paused, and a resume enables it again', () => {
    const o = annotated(built(cnpg), { 'cnpg.io/reconciliationLoop': 'disabled' });
    expect(projected(cnpg, o).spec.paused).toBe(true);
    const resumed = updateThrough(cnpg, o, { paused: false }).object!;
    expect(resumed.metadata?.annotations?.['cnpg.io/reconciliationLoop']).toBeUndefined();
    expect(projected(cnpg, resumed).spec.paused).toBeUndefined();
  });
});

describe('pause switches', () => {
  it('a marker resume also removes the other pauses the operator honours, and empty maps go', () => {
    const pause = markerPause('annotations', 'a/pause', 'on', { 'a/loop': 'disabled' });
    const o: KubeObject = { metadata: { annotations: { 'a/loop': 'disabled' } } };
    expect(pause.isPaused(o)).toBe(true);
    pause.set(o, false);
    expect(o.metadata).toEqual({});
    pause.set(o, true);
    expect(o.metadata?.annotations).toEqual({ 'a/pause': 'on' });
    expect(pause.isPaused({ metadata: { annotations: { 'a/pause': 'off' } } })).toBe(false);
  });

  it('a marker keeps the other keys of its map', () => {
    const pause = markerPause('labels', 'p', 'true');
    const o: KubeObject = { metadata: { labels: { team: 'a' } } };
    pause.set(o, true);
    expect(o.metadata?.labels).toEqual({ team: 'a', p: 'true' });
    pause.set(o, false);
    expect(o.metadata?.labels).toEqual({ team: 'a' });
  });

  it('a spec field is true when paused and gone when resumed; only true pauses', () => {
    const pause = specFieldPause('suspend');
    const o: KubeObject = { spec: { replicas: 1 } };
    pause.set(o, true);
    expect(o.spec).toEqual({ replicas: 1, suspend: true });
    pause.set(o, false);
    expect(o.spec).toEqual({ replicas: 1 });
    expect(pause.isPaused({ spec: { suspend: 'true' } })).toBe(false);
    const bare: KubeObject = {};
    pause.set(bare, true);
    expect(bare.spec).toEqual({ suspend: true });
  });
});
