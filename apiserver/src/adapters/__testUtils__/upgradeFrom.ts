import { majorOf } from '../../writes/version';
import type { OperatorAdapter } from '../types';

/**
 * The oldest offered version an instance can be upgraded from to the newest (`versions[0]`):
 * the oldest of all, unless the rules refuse major upgrades (CloudNativePG), then the oldest
 * of the newest major.
 */
export function upgradeFrom(adapter: OperatorAdapter): string {
  const { versions } = adapter;
  const newest = versions[0];
  const refusesMajors = adapter.write?.rules.majorUpgradeRefusal !== undefined;
  const reachable = versions.filter(
    v => !refusesMajors || majorOf(v) === majorOf(newest),
  );
  return reachable[reachable.length - 1] ?? newest;
}
