import { jsonEqual } from '../store/jsonEqual';
import type { ObjectStore } from '../store/types';
import { labelSelectorMatches } from './labelSelectorMatches';
import { RBAC_RESOURCES } from './RbacObjectIndex';
import { RBAC_GROUP, type ClusterRole, type PolicyRule } from './types';

/** Enough for any aggregation chain a cluster has (view → edit → admin is three). */
const MAX_PASSES = 16;

/** A rule with every list present, so that an absent list and an empty one compare equal (as Semantic.DeepEqual does). */
function normalised(rule: PolicyRule): PolicyRule {
  return {
    verbs: rule.verbs ?? [],
    apiGroups: rule.apiGroups ?? [],
    resources: rule.resources ?? [],
    resourceNames: rule.resourceNames ?? [],
    nonResourceURLs: rule.nonResourceURLs ?? [],
  };
}

const sameRule = (a: PolicyRule, b: PolicyRule) =>
  jsonEqual(normalised(a), normalised(b));

/** Go's sort by name: byte order, not locale order. */
function byObjectName(a: ClusterRole, b: ClusterRole): number {
  if (a.metadata.name === b.metadata.name) return 0;
  return a.metadata.name < b.metadata.name ? -1 : 1;
}

/**
 * The rules an aggregated ClusterRole gets, as kube-controller-manager's clusterrole-aggregation
 * controller computes them: for each selector in order, the matching ClusterRoles by name
 * (itself excluded), each of their rules once.
 */
export function aggregatedRules(
  role: ClusterRole,
  all: readonly ClusterRole[],
): PolicyRule[] {
  const byName = [...all].sort(byObjectName);
  const rules: PolicyRule[] = [];
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!labelSelectorMatches(selector, other.metadata.labels)) continue;
      for (const rule of other.rules ?? [])
        if (!rules.some(r => sameRule(r, rule))) rules.push(rule);
    }
  }
  return rules;
}

/**
 * The emulator's clusterrole-aggregation controller: whenever any ClusterRole changes, every
 * ClusterRole with an aggregationRule gets its rules recomputed and written when they differ.
 * Aggregation chains (view → edit → admin) settle because each write is itself a change. It runs
 * inside the store's event delivery, so an aggregated role is current before the next request
 * (kube's controller lags by a moment; no test here needs that lag).
 */
export class ClusterRoleAggregator {
  private watch: { stop(): void } | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly log: (
      message: string,
      fields?: Record<string, unknown>,
    ) => void = () => {},
  ) {}

  start(): void {
    this.syncAll();
    this.watch = this.store.watch(this.store.currentRV(), ev => {
      if (
        ev.resource.group === RBAC_GROUP &&
        ev.resource.plural === 'clusterroles'
      )
        this.syncAll();
    });
  }

  stop(): void {
    this.watch?.stop();
  }

  /**
   * Recomputes every aggregated ClusterRole until nothing changes: one pass may read a role that
   * the same pass rewrites later (edit before view), and at start no watch event re-runs it.
   */
  syncAll(): void {
    for (let pass = 0; pass < MAX_PASSES && this.syncPass(); pass++);
  }

  /** One pass over every aggregated ClusterRole; true when it wrote any. */
  private syncPass(): boolean {
    const key = RBAC_RESOURCES.clusterroles;
    const all = this.store.list(key) as unknown as ClusterRole[];
    let changed = false;
    for (const role of all) {
      if (!role.aggregationRule) continue;
      let rules: PolicyRule[];
      try {
        rules = aggregatedRules(role, all);
      } catch (err) {
        this.log('ClusterRole aggregation failed', {
          clusterRole: role.metadata.name,
          error: String(err),
        });
        continue;
      }
      const current = role.rules ?? [];
      if (
        rules.length === current.length &&
        rules.every((r, i) => sameRule(r, current[i]))
      )
        continue;
      this.store.update(key, { ...role, rules } as unknown as Record<
        string,
        unknown
      >);
      changed = true;
    }
    return changed;
  }
}
