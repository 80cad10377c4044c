import { describe, it, expect } from '@jest/globals';
import {
  ANNOTATION_DELETION_PROTECTION,
  ANNOTATION_OWNER,
  ANNOTATION_REQUESTED_BY,
  type DatabaseInstance,
  type DatabaseInstanceSpec,
  type DatabaseTopology,
  LABEL_BACKSTAGE_KUBERNETES_ID,
  LABEL_MANAGED_BY,
  LABEL_REQUESTED_BY,
} from '@internal/plugin-databases-common';
import { applyDefaults } from '../writes/defaults';
import { isLabelValue } from '../writes/labelValue';
import { emptyLookup } from './__testUtils__/schemaDerivedFixtures';
import { upgradeFrom } from './__testUtils__/upgradeFrom';
import { adapters } from './registry';
import type { AdapterWriteSide, KubeObject, OperatorAdapter } from './types';

const writable = adapters.filter(a => a.write) as Array<
  OperatorAdapter & { write: AdapterWriteSide }
>;

/** Every engine × topology it offers for new instances. */
const cases: Array<
  [string, DatabaseTopology, OperatorAdapter & { write: AdapterWriteSide }]
> = writable.flatMap(a =>
  a.write.topologies.map(
    t => [a.engine, t, a] as [string, DatabaseTopology, typeof a],
  ),
);

function instanceOf(
  adapter: OperatorAdapter & { write: AdapterWriteSide },
  spec: DatabaseInstanceSpec,
): DatabaseInstance {
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: {
      name: 'orders',
      namespace: 'team-a',
      labels: { [LABEL_BACKSTAGE_KUBERNETES_ID]: 'orders' },
      annotations: { [ANNOTATION_OWNER]: 'group:default/team-a' },
    },
    spec: applyDefaults(spec, adapter.write),
  };
}

/** A non-default spec per topology: oldest offered version, a storage class, custom resources. */
function customSpec(
  adapter: OperatorAdapter & { write: AdapterWriteSide },
  topology: DatabaseTopology,
): DatabaseInstanceSpec {
  const defaults = adapter.write.defaults(topology);
  // One more pair of members where the topology allows more than one (odd stays odd).
  const replicas = defaults.replicas > 1 ? defaults.replicas + 2 : 1;
  return {
    engine: adapter.engine,
    topology,
    version: adapter.versions[adapter.versions.length - 1],
    replicas,
    storage: { size: '1536Mi', storageClassName: 'fast-ssd' },
    resources: {
      requests: { cpu: '1500m', memory: '3Gi' },
      limits: { cpu: '2', memory: '3Gi' },
    },
    deletionProtection: true,
  };
}

function build(
  adapter: OperatorAdapter & { write: AdapterWriteSide },
  instance: DatabaseInstance,
): KubeObject {
  return adapter.write.toOperatorObject(instance, {
    requestedBy: 'user:default/alice.o-brien',
  });
}

const project = (
  adapter: OperatorAdapter,
  topology: DatabaseTopology,
  object: KubeObject,
) =>
  adapter.project(
    object,
    (adapter as OperatorAdapter & { write: AdapterWriteSide }).write.kindFor(
      topology,
    ),
    emptyLookup,
  );

// What kube-apiserver keeps of each object built here (pruning, the upstream schema) is
// upstreamWrites.test.ts's: every create and update of every engine and topology.
describe('write sides: every engine × topology', () => {
  it('covers every engine, each with at least one topology', () => {
    expect(writable.map(a => a.engine).sort()).toEqual(
      adapters.map(a => a.engine).sort(),
    );
    for (const a of writable) {
      expect(a.write.topologies).toContain(a.write.defaultTopology);
      // Offered topologies are ones the adapter's kinds can be read back as.
      for (const t of a.write.topologies)
        expect(a.kinds.flatMap(k => k.topologies)).toContain(t);
    }
  });

  describe.each(cases)('%s %s', (_engine, topology, adapter) => {
    const variants: Array<[string, DatabaseInstanceSpec]> = [
      ['defaults', { engine: adapter.engine, topology }],
      ['custom values', customSpec(adapter, topology)],
    ];

    it.each(variants)('%s validate cleanly', (_name, spec) => {
      const instance = instanceOf(adapter, spec);
      expect(adapter.write.validate(instance.spec)).toEqual([]);
    });

    it.each(variants)('%s read back the same spec', (_name, spec) => {
      const instance = instanceOf(adapter, spec);
      const projected = project(adapter, topology, build(adapter, instance));
      expect(projected.spec).toEqual(instance.spec);
      expect(projected.metadata.name).toBe('orders');
      expect(projected.metadata.namespace).toBe('team-a');
    });

    it('stamps labels and annotations and reads them back', () => {
      const instance = instanceOf(adapter, customSpec(adapter, topology));
      const object = build(adapter, instance);
      const { labels = {}, annotations = {} } = project(
        adapter,
        topology,
        object,
      ).metadata;
      expect(labels[LABEL_BACKSTAGE_KUBERNETES_ID]).toBe('orders');
      expect(labels[LABEL_MANAGED_BY]).toBe('dbaas-apiserver');
      expect(isLabelValue(labels[LABEL_REQUESTED_BY])).toBe(true);
      expect(labels[LABEL_REQUESTED_BY]).toContain('alice.o-brien');
      expect(annotations[ANNOTATION_REQUESTED_BY]).toBe(
        'user:default/alice.o-brien',
      );
      expect(annotations[ANNOTATION_OWNER]).toBe('group:default/team-a');
      expect(annotations[ANNOTATION_DELETION_PROTECTION]).toBe('true');
    });

    it('does not let the client claim who asked', () => {
      const instance = instanceOf(adapter, {
        engine: adapter.engine,
        topology,
      });
      instance.metadata.labels![LABEL_REQUESTED_BY] = 'mallory';
      instance.metadata.annotations![ANNOTATION_REQUESTED_BY] = 'mallory';
      const object = adapter.write.toOperatorObject(instance);
      expect(object.metadata?.labels?.[LABEL_REQUESTED_BY]).toBeUndefined();
      expect(
        object.metadata?.annotations?.[ANNOTATION_REQUESTED_BY],
      ).toBeUndefined();
    });

    it('applies an upgrade, a resize and new resources, and reads them back', () => {
      const defaults = adapter.write.defaults(topology);
      const older = upgradeFrom(adapter);
      const instance = instanceOf(adapter, {
        engine: adapter.engine,
        topology,
        version: older,
      });
      const current = build(adapter, instance);
      const previous = project(adapter, topology, current).spec;
      // mysql-operator cannot resize the datadir (a refusal, tested with the refusals).
      const resizable = adapter.engine !== 'mysql';
      const next: DatabaseInstanceSpec = {
        ...previous,
        version: adapter.versions[0],
        storage: resizable ? { size: '20Gi' } : previous.storage,
        resources: {
          requests: { cpu: '2', memory: '4Gi' },
          limits: { memory: '4Gi' },
        },
        deletionProtection: true,
      };
      expect(defaults.storage.size).not.toBe('20Gi');
      const result = adapter.write.applyUpdate(current, next, previous);
      if (!('object' in result)) throw new Error(JSON.stringify(result.causes));
      expect(project(adapter, topology, result.object).spec).toEqual(next);
      // The current object is left untouched.
      expect(project(adapter, topology, current).spec).toEqual(previous);
    });

    it('clears deletion protection', () => {
      const instance = instanceOf(adapter, {
        engine: adapter.engine,
        topology,
        deletionProtection: true,
      });
      const current = build(adapter, instance);
      const previous = project(adapter, topology, current).spec;
      expect(previous.deletionProtection).toBe(true);
      const result = adapter.write.applyUpdate(
        current,
        { ...previous, deletionProtection: false },
        previous,
      );
      if (!('object' in result)) throw new Error(JSON.stringify(result.causes));
      expect(
        project(adapter, topology, result.object).spec.deletionProtection,
      ).toBeUndefined();
    });
  });
});
