/** A status condition as operators write them (metav1.Condition-like; `reason` optional for ECK). */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime: string;
}

/**
 * Builds the next conditions list from the wanted ones, keeping each condition's
 * lastTransitionTime when its status did not change (as apimachinery's SetStatusCondition does).
 * Conditions not wanted any more are dropped; order follows `wanted`.
 */
export function nextConditions(
  previous: unknown,
  wanted: Array<Omit<Condition, 'lastTransitionTime'>>,
  now: string,
): Condition[] {
  const prev = Array.isArray(previous) ? (previous as Condition[]) : [];
  return wanted.map(w => {
    const old = prev.find(p => p?.type === w.type);
    const clean = Object.fromEntries(
      Object.entries(w).filter(([, v]) => v !== undefined),
    ) as Omit<Condition, 'lastTransitionTime'>;
    return {
      ...clean,
      lastTransitionTime:
        old && old.status === w.status && old.lastTransitionTime
          ? old.lastTransitionTime
          : now,
    };
  });
}

/**
 * The previous conditions with one set (replaced by type, or added last), as an operator
 * that writes a single condition leaves the others it wrote before as they were.
 */
export function withCondition(
  previous: unknown,
  wanted: Omit<Condition, 'lastTransitionTime'>,
  now: string,
): Condition[] {
  const prev = Array.isArray(previous) ? (previous as Condition[]) : [];
  const others = prev.filter(p => p?.type !== wanted.type);
  const [set] = nextConditions(prev, [wanted], now);
  const at = prev.findIndex(p => p?.type === wanted.type);
  return at < 0
    ? [...others, set]
    : [...others.slice(0, at), set, ...others.slice(at)];
}
