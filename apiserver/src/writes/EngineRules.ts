import type {
  DatabaseEngineName,
  DatabaseTopology,
} from '@internal/plugin-databases-common';

/**
 * What one operator can run and change, as data: the shared validation (`validateEngineSpec`)
 * and update checks (`checkUpdate`) read it, so each adapter states its rules once.
 */
export interface EngineRules {
  engine: DatabaseEngineName;
  /** Upstream project id, used in messages (`... is not supported by mariadb-operator`). */
  operator: string;
  topologies: readonly DatabaseTopology[];
  /** Versions offered (the adapter's documented list). */
  versions: readonly string[];
  /** Why `replicas` is wrong for `topology`, or undefined when it is fine. */
  replicasProblem(
    topology: DatabaseTopology,
    replicas: number,
  ): string | undefined;
  /** Whether the operator expands volumes when the size grows. */
  storageGrowth: boolean;
  /** Whether the operator can remove members (scale down). */
  scaleDown: boolean;
  /**
   * For engines whose topology is a function of the replica count (RabbitMQ: 1 = standalone,
   * more = cluster): the topology for a count. A topology change is then allowed when it
   * follows from an allowed replica change.
   */
  topologyForReplicas?(replicas: number): DatabaseTopology;
}
