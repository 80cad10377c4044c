import { adapters } from '@internal/databases-apiserver';
import { DEMO_INSTANCES, type HealthMode } from '@internal/kube-emulator';

/** The lifecycle a template instance is held in while the emulated operators run. */
export type VariantMode = HealthMode | 'pending';

/** One kind of instance the population is made of: an engine, a topology, and a phase. */
export interface Variant {
  /** Short, name-safe id (`mariadb-galera-ready`). */
  id: string;
  engine: string;
  topology: string;
  kind: { group: string; version: string; plural: string; kind: string };
  mode: VariantMode;
  /** The operator object named `name` in `namespace` and the Secrets it needs first. */
  build(name: string, namespace: string): { object: Record<string, any>; secrets: Array<Record<string, any>> };
  /** Relative frequency in the population. */
  weight: number;
}

/**
 * How often each phase occurs: a fleet is mostly healthy, with a few of every other state.
 * `pending` objects never got a status (their operator has not acted on them).
 */
export const MODE_WEIGHTS: Record<VariantMode, number> = {
  ready: 70,
  degraded: 8,
  provisioning: 7,
  updating: 6,
  failed: 5,
  pending: 4,
  stalled: 0,
  // what an operator holds back itself (a failing restore): already among provisioning and failed
  held: 0,
};

/**
 * Every engine × topology our write side offers (plus the read-only RedisSentinel kind, from
 * the emulator's demo) × every phase mode. Operator objects come from the adapters' own
 * `toOperatorObject` with the documented defaults, so they are what a create through the API
 * writes and they validate against the upstream CRD schemas.
 */
export function allVariants(): Variant[] {
  const out: Variant[] = [];
  const modes = (Object.keys(MODE_WEIGHTS) as VariantMode[]).filter(m => MODE_WEIGHTS[m] > 0);
  for (const adapter of adapters) {
    const write = adapter.write;
    if (!write) continue;
    for (const topology of write.topologies) {
      const defaults = write.defaults(topology);
      const build = (name: string, namespace: string) => {
        const instance = {
          apiVersion: 'dbaas.platform.dev/v1alpha1',
          kind: 'DatabaseInstance',
          metadata: { name, namespace },
          spec: {
            engine: adapter.engine,
            topology,
            version: defaults.version,
            replicas: defaults.replicas,
            storage: { ...defaults.storage },
            resources: JSON.parse(JSON.stringify(defaults.resources)),
          },
        } as any;
        return {
          object: write.toOperatorObject(instance, { requestedBy: 'bench' }) as Record<string, any>,
          secrets: write.secretsToCreate(instance, () => 'bench-password-0123456789') as Array<Record<string, any>>,
        };
      };
      const kind = write.kindFor(topology);
      for (const mode of modes) {
        out.push({
          id: `${adapter.engine}-${topology}-${mode}`,
          engine: adapter.engine,
          topology,
          kind: { group: kind.group, version: kind.version, plural: kind.plural, kind: kind.kind },
          mode,
          build,
          weight: MODE_WEIGHTS[mode],
        });
      }
    }
  }
  // RedisSentinel objects are only ever created by hand upstream; the demo has a real one.
  const sentinel = DEMO_INSTANCES.find(d => d.kind.kind === 'RedisSentinel');
  if (sentinel) {
    for (const mode of ['ready', 'degraded'] as const) {
      out.push({
        id: `redis-sentinelkind-${mode}`,
        engine: 'redis',
        topology: 'sentinel',
        kind: { ...sentinel.kind },
        mode,
        build: (name, namespace) => ({
          object: {
            apiVersion: `${sentinel.kind.group}/${sentinel.kind.version}`,
            kind: sentinel.kind.kind,
            metadata: { name, namespace },
            spec: JSON.parse(JSON.stringify(sentinel.spec)),
          },
          secrets: [],
        }),
        weight: MODE_WEIGHTS[mode] / 2,
      });
    }
  }
  return out;
}
