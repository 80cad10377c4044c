import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { AdapterWriteSide, ValidationContext } from '../adapters/types';

/**
 * The version a new instance gets when it names none: the engine's documented default while it
 * is offered, else the first version offered (the list is newest first by convention), so a request without a version is never
 * refused for a version it did not ask for after the platform team narrowed the list.
 */
export function offeredDefaultVersion(
  engineDefault: string,
  offered: readonly string[] | undefined,
): string {
  if (!offered || offered.length === 0 || offered.includes(engineDefault))
    return engineDefault;
  return offered[0];
}

/**
 * Fills what a create request leaves out with the engine's documented defaults
 * (docs/engines.md): topology, then version, replicas and storage size for that topology,
 * and resources only when the request names none at all (defaults mixed into a partial
 * request could contradict it, e.g. a default limit below a requested amount). A topology the
 * engine does not offer gets no topology-dependent defaults; validation reports it. `ctx` is
 * the cluster's narrowing of what the engine offers (`--engine-config`).
 */
export function applyDefaults(
  spec: DatabaseInstanceSpec,
  write: AdapterWriteSide,
  ctx?: ValidationContext,
): DatabaseInstanceSpec {
  const topology = spec.topology ?? write.defaultTopology;
  const known = write.topologies.includes(topology);
  const defaults = write.defaults(known ? topology : write.defaultTopology);
  const out: DatabaseInstanceSpec = {
    ...spec,
    topology,
    version:
      spec.version ?? offeredDefaultVersion(defaults.version, ctx?.versions),
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
