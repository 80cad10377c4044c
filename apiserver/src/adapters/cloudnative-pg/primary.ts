import type { PrimarySwitch } from '../../writes/primarySwitch';
import { asNumber, asRecord, asString } from '../shared/read';

/** `status.targetPrimary` while a failover has not chosen the new primary yet. */
export const FAILOVER_MARKER = 'pending';
/** The phase `kubectl cnpg promote` sets (api/v1 PhaseSwitchover). */
const PHASE_SWITCHOVER = 'Switchover in progress';

/**
 * CloudNativePG's switchover, as `kubectl cnpg promote` asks for it (internal/cmd/plugin/promote):
 * a patch of the Cluster's status subresource setting `targetPrimary` to the instance,
 * `targetPrimaryTimestamp`, phase "Switchover in progress" and phaseReason "Switching over to
 * <instance>"; the operator then moves the primary and reports `currentPrimary`. What the
 * Cluster targets is `spec.primary`; the failover marker ("pending") is no member's name.
 */
export const postgresqlPrimary: PrimarySwitch = {
  read(object) {
    const target = asString(asRecord(object.status)?.targetPrimary);
    return target === FAILOVER_MARKER ? undefined : target;
  },
  refusal(object) {
    const instances = asNumber(asRecord(object.spec)?.instances) ?? 1;
    if (instances < 2) return 'a single-instance cluster has no replica to promote: scale it to 2 or more instances first';
    if (asString(asRecord(object.status)?.targetPrimary) === FAILOVER_MARKER)
      return 'the operator is failing over: it is choosing the new primary itself';
    return undefined;
  },
  set(object, member, now) {
    object.status = {
      ...asRecord(object.status),
      targetPrimary: member,
      targetPrimaryTimestamp: now,
      phase: PHASE_SWITCHOVER,
      phaseReason: `Switching over to ${member}`,
    };
  },
};
