import type { DatabasePhase } from '@internal/plugin-databases-common';

/** Something an operator said, translated: a PascalCase reason and its own words. */
export interface Signal {
  /** PascalCase, machine-readable. */
  reason: string;
  /** The operator's own words, verbatim, when it has any. */
  message?: string;
}

/** Elasticsearch-style cluster health colour. */
export type HealthColour = 'green' | 'yellow' | 'red' | 'unknown';

/**
 * What one adapter observed about one instance: plain facts, no verdict. Absent means
 * "the operator does not say". `decidePhase` turns these into one phase for every engine,
 * so adapters must only report, never decide.
 */
export interface PhaseFacts {
  /** The source object carries a deletionTimestamp (or the operator says it is finalizing). */
  deleting: boolean;
  /**
   * The operator has acted on the object: it wrote a status, or (for operators that write none)
   * the objects it creates exist.
   */
  hasStatus: boolean;
  /**
   * The operator's overall readiness verdict (Ready condition, `state: Ready`, `ONLINE`...);
   * undefined when it gives none.
   */
  operatorReady?: boolean;
  /** The operator's words accompanying its readiness verdict (e.g. MariaDB's "Running"). */
  readyMessage?: string;
  /**
   * The operator's own reason for a not-ready verdict (`operatorReady: false`) that names
   * nothing the adapter knows, verbatim: kept as the instance's reason, not replaced by ours.
   */
  notReadyReason?: string;
  /** The operator reports an error or a rejected spec. */
  error?: Signal;
  /**
   * The operator reports work under way. `change` is true when the work is by nature a
   * day-2 change (scale, upgrade, resize, switchover), not a first creation.
   */
  progress?: Signal & { change?: boolean };
  /** The operator reports the instance serving but unhealthy (Galera recovering, ONLINE_PARTIAL...). */
  unhealthy?: Signal;
  /** The operator reports that nothing serves clients (no endpoints, unreachable). */
  notServing?: Signal;
  /** Cluster health colour, for engines that report one. */
  health?: HealthColour;
  /** Desired and ready members (pods/nodes), where known. */
  replicas?: { desired?: number; ready?: number };
  /**
   * Evidence in the upstream objects that the instance was ready once (so missing replicas
   * mean degraded, not still provisioning). False when there is no such evidence.
   */
  onceReady: boolean;
  /** metadata.generation of the source and the generation the operator has observed. */
  generation?: number;
  observedGeneration?: number;
  /**
   * The operator reports a running version other than the spec's: an upgrade it has not
   * finished (or not started). Filled in by `toInstance` from the adapter's versions.
   */
  versionBehind?: { running: string; desired: string };
  /**
   * Stopped on purpose by its owner: hibernated (no pods, volumes kept) or the operator told
   * not to reconcile (its status is then frozen and says nothing about now).
   */
  paused?: Signal;
  /** Reason (and words) to give when the facts allow no verdict. */
  indeterminate?: Signal;
}

/** The shared table's decision. */
export interface PhaseVerdict {
  phase: DatabasePhase;
  reason: string;
  message?: string;
}
