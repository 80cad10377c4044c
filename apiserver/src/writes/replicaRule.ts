import type { DatabaseTopology } from '@internal/plugin-databases-common';

/**
 * How many replicas one topology may have, as data: the apiserver validates with it, and
 * DatabaseEngine publishes it so the portal checks the same rule as the user types.
 */
export interface ReplicaRule {
  min: number;
  /** No upper bound when absent. */
  max?: number;
  /** Only odd counts (quorum-based topologies, where an even count can split brain). */
  odd?: boolean;
  /** What is wrong with a count outside the rule, as `spec.replicas` errors say it. */
  message: string;
}

/** Whether `replicas` (an integer ≥ 1) is allowed by `rule`. */
export function replicasAllowed(rule: ReplicaRule, replicas: number): boolean {
  return (
    replicas >= rule.min &&
    (rule.max === undefined || replicas <= rule.max) &&
    !(rule.odd && replicas % 2 === 0)
  );
}

/**
 * `EngineRules.replicas` over a table of the engine's topologies. A topology outside the table
 * is refused elsewhere (`spec.topology`), so it only gets the rule every count obeys anyway.
 */
export function replicaRulesOf(
  table: Partial<Record<DatabaseTopology, ReplicaRule>>,
): (topology: DatabaseTopology) => ReplicaRule {
  return topology =>
    table[topology] ?? {
      min: 1,
      message: 'must be an integer greater than or equal to 1',
    };
}
