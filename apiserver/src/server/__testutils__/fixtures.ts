import type {
  DatabaseEngine,
  DatabaseEngineName,
  DatabaseInstance,
  DatabasePhase,
  DatabaseTopology,
} from '@internal/plugin-databases-common';

/** Options of {@link makeInstance}. */
export interface InstanceFixture {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  engine?: DatabaseEngineName;
  phase?: DatabasePhase;
  topology?: DatabaseTopology;
  replicas?: number;
  ready?: number;
  created?: string;
  reason?: string;
}

/** A plausible DatabaseInstance for HTTP tests (content beyond the wire shape does not matter here). */
export function makeInstance(f: InstanceFixture): DatabaseInstance {
  const namespace = f.namespace ?? 'team-a';
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: {
      name: f.name,
      namespace,
      uid: `uid-${namespace}-${f.name}`,
      creationTimestamp: f.created ?? '2025-01-01T00:00:00Z',
      generation: 1,
      ...(f.labels ? { labels: f.labels } : {}),
    },
    spec: {
      engine: f.engine ?? 'mariadb',
      version: '11.4',
      topology: f.topology ?? 'standalone',
      replicas: f.replicas ?? 1,
    },
    status: {
      phase: f.phase ?? 'Ready',
      ...(f.reason ? { reason: f.reason } : {}),
      source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name: f.name, operator: 'mariadb-operator' },
      version: '11.4.2',
      replicas: { desired: f.replicas ?? 1, ready: f.ready ?? f.replicas ?? 1 },
      endpoints: [{ name: 'primary', host: `${f.name}-primary.${namespace}.svc`, port: 3306 }],
    },
  };
}

/** A DatabaseEngine for HTTP tests. */
export function makeEngine(engine: DatabaseEngineName, installed: boolean, instances = 0): DatabaseEngine {
  return {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseEngine',
    metadata: { name: engine, uid: `uid-engine-${engine}`, resourceVersion: '1', creationTimestamp: '2025-01-01T00:00:00Z' },
    spec: {
      engine,
      operator: `${engine}-operator`,
      capabilityLevel: 3,
      kinds: [],
      topologies: ['standalone'],
      versions: ['1.0'],
    },
    status: { installed, instances, phases: {} },
  };
}
