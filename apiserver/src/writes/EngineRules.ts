import type {
  DatabaseEngineName,
  DatabaseTopology,
} from '@internal/plugin-databases-common';
import type { ReplicaRule } from './replicaRule';

/**
 * Which versions the operator can run: what a platform team may offer (`--engine-config`) is
 * checked against it, so a typo or an unsupported line is refused at start, not at create.
 */
export interface RunnableVersions {
  /** Oldest version the operator supports. */
  min: string;
  /** Newest version the operator supports, when it has a ceiling. */
  max?: string;
  /** Exact number of dotted parts, when the operator's field requires it (`8.4.3`, not `8.4`). */
  parts?: number;
  /** Where the bounds come from, for the error message. */
  source: string;
}

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
  /** Versions the operator can run at all (bounds for configured version lists). */
  runnableVersions: RunnableVersions;
  /** The replica counts `topology` allows (called for the engine's own topologies only). */
  replicas(topology: DatabaseTopology): ReplicaRule;
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
  /**
   * Set where an upgrade across major versions is refused: why, and what to do instead
   * (CloudNativePG). Unset: the operator's own rules about majors apply.
   */
  majorUpgradeRefusal?: string;
}
