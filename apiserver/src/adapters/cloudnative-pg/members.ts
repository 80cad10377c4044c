import { asArray, asNumber, asRecord, asString, nameOf } from '../shared/read';
import { memberPods, ordinalPods, podLabel, type MemberRole, type MemberSource } from '../shared/members';

const ROLE = 'cnpg.io/instanceRole';
// the label's name before 1.22 (`role`), still set beside the new one
const LEGACY_ROLE = 'role';

/**
 * CloudNativePG's members: its instance pods (`<cluster>-<serial>`, serials not contiguous once
 * one was replaced: `status.instanceNames` lists them). No headless Service, so no member DNS
 * name. The role is the pod's `cnpg.io/instanceRole` (what `-rw`/`-ro` route by), falling back
 * to `status.currentPrimary`; the primary's since is `status.currentPrimaryTimestamp`.
 */
export const cnpgMembers: MemberSource = {
  // pkg/specs/pods.go: every instance pod, no Job or pooler pod (the operator's status.selector)
  pods: memberPods('cnpg.io/podRole=instance', { labels: [ROLE, LEGACY_ROLE] }),
  expected(source) {
    const names = asArray(asRecord(source.status)?.instanceNames).map(asString).filter((n): n is string => !!n);
    if (names.length) return names.map(pod => ({ pod }));
    return ordinalPods(nameOf(source), asNumber(asRecord(source.spec)?.instances) ?? 1, undefined, 1);
  },
  role(source, _kind, name, pod): MemberRole {
    const status = asRecord(source.status) ?? {};
    const label = podLabel(pod, ROLE) ?? podLabel(pod, LEGACY_ROLE);
    const primary = label ? label === 'primary' : asString(status.currentPrimary) === name;
    const since = primary && asString(status.currentPrimary) === name ? asString(status.currentPrimaryTimestamp) : undefined;
    return { role: primary ? 'primary' : 'replica', engineRole: label ?? (primary ? 'primary' : 'replica'), ...(since ? { since } : {}) };
  },
};
