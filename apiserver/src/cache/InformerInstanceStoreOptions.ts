import type { OperatorAdapter } from '../adapters/types';
import type { InstanceBackups } from '../backups/withBackupTimes';
import type { EngineConfig } from '../engines';
import type { InformerBackoff } from './ManagedInformer';
import type { Projection, ProjectionInput } from './projectInstance';
import type { InformerFactory } from './ResourceInformer';

export interface InformerInstanceStoreOptions {
  adapters: readonly OperatorAdapter[];
  informerFactory: InformerFactory;
  /** Watch history bounds (contract §7.4 asks for at least 5 minutes). */
  historyMaxEvents?: number;
  historyMaxAgeSeconds?: number;
  /**
   * Changes arriving within this window are applied together, in resourceVersion order
   * (informers of different types deliver independently, so their events interleave).
   * Default 5 ms: watch streams of one kube-apiserver deliver a change within a millisecond or
   * two of each other, every millisecond here is added to each watcher's latency, and a change
   * arriving later than the window loses nothing (it goes out with the next newer RV).
   */
  batchWindowMs?: number;
  restartBackoff?: InformerBackoff;
  /**
   * How long a watch must have been failing before the instances built from it carry the
   * `Stale` condition (default 3 s): a connection reset that resumes at once is no news.
   */
  staleAfterMs?: number;
  /**
   * Reads the cluster's current resourceVersion (a quorum read), for late changes that waited
   * without a newer RV (see LateChanges). Without it they go out at the last RV served.
   */
  clusterResourceVersion?: () => Promise<string | undefined>;
  /** Longest a late change waits for the cluster's RV to move (default 5 s; see LateChanges). */
  lateChangeMaxWaitMs?: number;
  /** The platform team's versions and sizes per engine (`--engine-config`); default: none. */
  engineConfig?: EngineConfig;
  /**
   * How one source object is served (default: as a DatabaseInstance with the rollout memory,
   * projectInstance). The backup store serves its backup runs through the same machinery.
   */
  project?: (input: ProjectionInput) => Projection;
  /**
   * The served backup runs and schedules of the instance of an operator object (the apiserver's
   * backup stores), of which `status.backup` shows the last and next runs; a change of them
   * reaches the instance through {@link InformerInstanceStore.backupsChanged}.
   */
  backupsOf?: (namespace: string, name: string) => InstanceBackups | undefined;
  /**
   * What must be in before the store counts as synced (the backup stores `backupsOf` reads), so
   * that a new replica's first list is what the others serve; absent: nothing.
   */
  syncsAfter?: Promise<void>;
  now?: () => number;
  logger?: {
    info(msg: string, meta?: object): void;
    warn(msg: string, meta?: object): void;
  };
}
