import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { AdapterWriteSide } from '../adapters/types';

/**
 * Fills what a create request leaves out with the engine's documented defaults
 * (docs/engines.md): topology, then version, replicas and storage size for that topology,
 * and resources only when the request names none at all (defaults mixed into a partial
 * request could contradict it, e.g. a default limit below a requested amount). A topology the
 * engine does not offer gets no topology-dependent defaults; validation reports it.
 */
export function applyDefaults(
  spec: DatabaseInstanceSpec,
  write: AdapterWriteSide,
): DatabaseInstanceSpec {
  const topology = spec.topology ?? write.defaultTopology;
  const known = write.topologies.includes(topology);
  const defaults = write.defaults(known ? topology : write.defaultTopology);
  const out: DatabaseInstanceSpec = {
    ...spec,
    topology,
    version: spec.version ?? defaults.version,
  };
  if (known) out.replicas = spec.replicas ?? defaults.replicas;
  const storage: unknown = spec.storage;
  // A storage of the wrong type is left for validation to name.
  if (
    storage === undefined ||
    (typeof storage === 'object' && storage !== null && !Array.isArray(storage))
  )
    out.storage = {
      ...spec.storage,
      size: spec.storage?.size ?? defaults.storage.size,
    };
  if (spec.resources === undefined)
    out.resources = JSON.parse(JSON.stringify(defaults.resources));
  return out;
}
