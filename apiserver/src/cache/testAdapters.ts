// Test-only: two small fake adapters (the real ones live in ../adapters and are tested there).
import type {
  DatabaseInstance,
  DatabasePhase,
} from '@internal/plugin-databases-common';
import type {
  KubeObject,
  OperatorAdapter,
  ResourceType,
  SourceKind,
} from '../adapters/types';

export const STATEFULSETS: ResourceType = {
  group: 'apps',
  version: 'v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
};
export const REDIS_KIND: SourceKind = {
  group: 'redis.redis.opstreelabs.in',
  version: 'v1beta2',
  plural: 'redis',
  kind: 'Redis',
  topologies: ['standalone'],
};
export const MARIADB_KIND: SourceKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'mariadbs',
  kind: 'MariaDB',
  topologies: ['standalone', 'replication', 'galera'],
};

function base(
  source: KubeObject,
  kind: SourceKind,
  engine: 'redis' | 'mariadb',
  operator: string,
): DatabaseInstance {
  const m = source.metadata!;
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { engine, replicas: source.spec?.replicas },
    status: {
      phase: 'Pending',
      source: {
        apiVersion: `${kind.group}/${kind.version}`,
        kind: kind.kind,
        name: m.name!,
        operator,
      },
    },
  };
}

/** Redis without status upstream: phase read from the StatefulSet of the same name. */
export const fakeRedisAdapter: OperatorAdapter = {
  id: 'redis-operator',
  engine: 'redis',
  operator: 'redis-operator',
  capabilityLevel: 2,
  kinds: [REDIS_KIND],
  relatedTypes: [STATEFULSETS],
  versions: ['7.2'],
  relatedRefs: source => [
    {
      type: STATEFULSETS,
      namespace: source.metadata!.namespace!,
      name: source.metadata!.name!,
    },
  ],
  project(source, kind, related) {
    const instance = base(source, kind, 'redis', 'redis-operator');
    const sts = related.get({
      type: STATEFULSETS,
      namespace: source.metadata!.namespace!,
      name: source.metadata!.name!,
    });
    const ready = sts?.status?.readyReplicas ?? 0;
    if (source.spec?.explode) {
      throw new Error('unreadable spec');
    }
    let phase: DatabasePhase = 'Pending';
    if (sts) {
      phase = ready >= (sts.spec?.replicas ?? 1) ? 'Ready' : 'Provisioning';
    }
    instance.status!.phase = phase;
    instance.status!.replicas = { desired: sts?.spec?.replicas, ready };
    return instance;
  },
};

/** MariaDB with a Ready condition on its own status. */
export const fakeMariadbAdapter: OperatorAdapter = {
  id: 'mariadb-operator',
  engine: 'mariadb',
  operator: 'mariadb-operator',
  capabilityLevel: 4,
  kinds: [MARIADB_KIND],
  relatedTypes: [],
  versions: ['11.4'],
  relatedRefs: () => [],
  project(source, kind) {
    const instance = base(source, kind, 'mariadb', 'mariadb-operator');
    const ready = (source.status?.conditions ?? []).find(
      (c: any) => c.type === 'Ready',
    );
    let phase: DatabasePhase = source.status ? 'Provisioning' : 'Pending';
    if (ready?.status === 'True') {
      phase = 'Ready';
    }
    instance.status!.phase = phase;
    return instance;
  },
};

/** A CRD object for a kind, as kube-apiserver serves it once established. */
export function crdFor(
  kind: SourceKind,
  rv: string,
  established = true,
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${kind.plural}.${kind.group}`,
      uid: `crd-${kind.plural}`,
      resourceVersion: rv,
    },
    spec: {
      group: kind.group,
      names: { plural: kind.plural, kind: kind.kind },
      scope: 'Namespaced',
      versions: [{ name: kind.version, served: true, storage: true }],
    },
    status: {
      conditions: [
        { type: 'Established', status: established ? 'True' : 'False' },
      ],
    },
  };
}

/** A namespaced object of some type. */
export function obj(
  type: ResourceType,
  ns: string,
  name: string,
  rv: string,
  rest: Partial<KubeObject> = {},
): KubeObject {
  return {
    apiVersion: type.group ? `${type.group}/${type.version}` : type.version,
    kind: type.kind,
    metadata: {
      name,
      namespace: ns,
      uid: `uid-${type.plural}-${ns}-${name}`,
      resourceVersion: rv,
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    ...rest,
  };
}
