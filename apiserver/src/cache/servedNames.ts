import type { Condition } from '@internal/plugin-databases-common';

/** One operator object competing for a name in a namespace. */
export interface NameClaim {
  /** Unique id of the source object in the store. */
  key: string;
  name: string;
  engine: string;
  kind: string;
}

/**
 * The names under which the operator objects holding one name in one namespace are served
 * (architecture: names are unique per namespace). Alone: the plain name. Shared between
 * operators: `<name>.<engine>` (`orders.redis`, `orders.mariadb`); shared between two kinds
 * of the same engine: `<name>.<kind>` lower-cased (`orders.rediscluster`), so names stay
 * unique. Pure; the caller passes every claim of the group.
 */
export function servedNames(claims: NameClaim[]): Map<string, string> {
  const out = new Map<string, string>();
  if (claims.length === 1) {
    out.set(claims[0].key, claims[0].name);
    return out;
  }
  for (const c of claims) {
    const sameEngine = claims.filter(o => o.engine === c.engine).length > 1;
    out.set(c.key, `${c.name}.${sameEngine ? c.kind.toLowerCase() : c.engine}`);
  }
  return out;
}

/** Condition type added to instances served under a qualified name. */
export const NAME_CONFLICT_CONDITION = 'NameConflict';

/** The condition telling why an instance is served under a qualified name. */
export function nameConflictCondition(
  claim: NameClaim,
  claims: NameClaim[],
  namespace: string,
  servedName: string,
  since: string,
): Condition {
  const holders = claims.map(c => `${c.kind} (${c.engine})`).join(', ');
  return {
    type: NAME_CONFLICT_CONDITION,
    status: 'True',
    reason: 'NameUsedByAnotherOperator',
    message: `name "${claim.name}" in namespace "${namespace}" is held by ${claims.length} operator objects: ${holders}; this one is served as "${servedName}" until the others are gone`,
    lastTransitionTime: since,
  };
}
