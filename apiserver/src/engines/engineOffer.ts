import type {
  DatabaseEngineSpec,
  DatabaseTopology,
  EngineReplicas,
} from '@internal/plugin-databases-common';
import type { OperatorAdapter } from '../adapters/types';
import { backupCapabilities } from '../backups/backupCapabilities';
import { offeredDefaultVersion } from '../writes/defaults';
import { defaultSizes } from './defaultSizes';
import type { EngineOverrides } from './EngineConfig';

/** The part of a DatabaseEngine's spec that says what a new instance can be. */
export type EngineOffer = Pick<
  DatabaseEngineSpec,
  'topologies' | 'versions' | 'defaults' | 'sizes' | 'replicas' | 'maxNameLength' | 'pausable' | 'switchover' | 'backup'
>;

/**
 * What an engine offers in this cluster: its adapter's topologies, defaults and replica rules,
 * with the versions and sizes the platform team configured (`overrides`) or else the adapter's
 * versions and the sizes derived from its defaults. The default version follows the offered
 * list, as creates do. A read-only adapter offers only what it reads.
 */
export function engineOffer(
  adapter: OperatorAdapter,
  overrides: EngineOverrides = {},
): EngineOffer {
  const versions = [...(overrides.versions ?? adapter.versions)];
  const write = adapter.write;
  if (!write)
    return {
      topologies: [...new Set(adapter.kinds.flatMap(k => k.topologies))],
      versions,
      backup: backupCapabilities(adapter),
    };
  const topology = write.defaultTopology;
  const defaults = write.defaults(topology);
  const replicas: Partial<Record<DatabaseTopology, EngineReplicas>> = {};
  for (const t of write.topologies) {
    const rule = write.rules.replicas(t);
    replicas[t] = {
      min: rule.min,
      ...(rule.max !== undefined && { max: rule.max }),
      ...(rule.odd && { odd: true }),
      default: write.defaults(t).replicas,
      description: rule.message,
    };
  }
  return {
    topologies: [...write.topologies],
    versions,
    maxNameLength: write.maxNameLength,
    pausable: write.pause !== undefined,
    switchover: write.primary !== undefined,
    backup: backupCapabilities(adapter),
    defaults: {
      engine: adapter.engine,
      topology,
      version: offeredDefaultVersion(defaults.version, overrides.versions),
      replicas: defaults.replicas,
      storage: { ...defaults.storage },
      resources: JSON.parse(JSON.stringify(defaults.resources)),
    },
    sizes: overrides.sizes
      ? JSON.parse(JSON.stringify(overrides.sizes))
      : defaultSizes(defaults),
    replicas,
  };
}
