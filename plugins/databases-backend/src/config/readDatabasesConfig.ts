import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import type { Config } from '@backstage/config';
import { readClusterConfig, type ClusterConfig, type ClusterConfigEnvironment } from './readClusterConfig';

export type { ClusterConfig } from './readClusterConfig';

/** Everything the plugin reads from `databases`. */
export interface DatabasesConfig {
  clusters: ClusterConfig[];
  impersonation: { userPrefix: string; groupPrefix: string };
  /** Catalog entities: who owns an instance that names no owner, by namespace. */
  catalog: { namespaceOwners: Record<string, string> };
  requestTimeoutMs: number;
  /**
   * How long an answer over several clusters (the list, an entity's instances) waits for one
   * cluster before it answers without it, naming it in `errors[]`; also how long such an answer
   * waits for a watch that has not listed its cluster yet. At most `requestTimeoutMs`.
   */
  clusterWaitMs: number;
}

/**
 * Reads and validates `databases`. Throws one error listing every problem, each naming its key,
 * so a bad config stops the backend at start-up instead of failing per request.
 */
export function readDatabasesConfig(config: Config, environment: ClusterConfigEnvironment = {}): DatabasesConfig {
  const problems: string[] = [];
  const clusters: ClusterConfig[] = [];
  const entries = config.getOptionalConfigArray('databases.clusters') ?? [];
  const seen = new Set<string>();
  entries.forEach((c, i) => {
    const cluster = readClusterConfig(c, i, problems, environment);
    if (!cluster) return;
    if (seen.has(cluster.name)) problems.push(`databases.clusters[${i}].name "${cluster.name}" is used twice`);
    else {
      seen.add(cluster.name);
      clusters.push(cluster);
    }
  });
  let timeout = 10_000;
  try {
    timeout = config.getOptionalNumber('databases.requestTimeoutMs') ?? timeout;
    if (!(timeout > 0)) problems.push('databases.requestTimeoutMs must be a positive number');
  } catch (e) {
    problems.push(`databases.requestTimeoutMs: ${(e as Error).message}`);
  }
  let clusterWaitMs = Math.min(2000, timeout);
  try {
    clusterWaitMs = config.getOptionalNumber('databases.clusterWaitMs') ?? clusterWaitMs;
    if (!(clusterWaitMs > 0)) problems.push('databases.clusterWaitMs must be a positive number');
    else if (clusterWaitMs > timeout) problems.push('databases.clusterWaitMs must not exceed databases.requestTimeoutMs');
  } catch (e) {
    problems.push(`databases.clusterWaitMs: ${(e as Error).message}`);
  }
  const impersonation = { userPrefix: '', groupPrefix: '' };
  try {
    impersonation.userPrefix =
      config.getOptionalString('databases.impersonation.userPrefix') ?? '';
    impersonation.groupPrefix =
      config.getOptionalString('databases.impersonation.groupPrefix') ?? '';
  } catch (e) {
    problems.push(`databases.impersonation: ${(e as Error).message}`);
  }
  const namespaceOwners: Record<string, string> = {};
  try {
    const owners = config.getOptionalConfig('databases.catalog.namespaceOwners');
    for (const namespace of owners?.keys() ?? []) {
      const ref = owners!.getString(namespace);
      try {
        namespaceOwners[namespace] = stringifyEntityRef(parseEntityRef(ref, { defaultKind: 'group', defaultNamespace: 'default' }));
      } catch {
        problems.push(`databases.catalog.namespaceOwners.${namespace}: "${ref}" is not an entity ref`);
      }
    }
  } catch (e) {
    problems.push(`databases.catalog.namespaceOwners: ${(e as Error).message}`);
  }
  if (problems.length > 0) {
    throw new Error(`Invalid databases configuration: ${problems.join('; ')}`);
  }
  return { clusters, impersonation, requestTimeoutMs: timeout, clusterWaitMs, catalog: { namespaceOwners } };
}
