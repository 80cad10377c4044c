import type { Condition } from '@internal/plugin-databases-common';

/** Condition type added to instances whose watch of the Kubernetes API is interrupted. */
export const STALE_CONDITION = 'Stale';

/**
 * The condition telling that an instance is the last state seen before the watches it is built
 * from broke: reads keep being answered from the cache, and this says they may be out of date.
 * `since` is when the first of those watches failed. It names no watch: when an outage breaks
 * them one after the other, the condition (and so the instance) stays the same, so watchers get
 * one MODIFIED event, not one per broken watch; `/readyz?verbose` and the log name them. Pure.
 */
export function staleCondition(since: number): Condition {
  const at = new Date(since).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    type: STALE_CONDITION,
    status: 'True',
    reason: 'WatchInterrupted',
    message: `the apiserver has not been able to watch the Kubernetes API since ${at}: this is the last state it saw and may be out of date`,
    lastTransitionTime: at,
  };
}
