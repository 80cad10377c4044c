import { asNumber, asRecord, asString, findCondition, nameOf } from '../shared/read';
import { memberPods, ordinalPods, type MemberRole, type MemberSource } from '../shared/members';
import { mariadbTopologyOf } from './topology';

/**
 * mariadb-operator's members: the StatefulSet `<name>`'s pods, named in DNS by the headless
 * `<name>-internal` Service. Pods carry no role label: the operator names the primary in
 * `status.currentPrimary` and, for replication, every pod's role in `status.replication.roles`
 * (Primary, Replica, PrimaryReplica: the primary of a replica cluster). Galera members are all
 * writable; `currentPrimary` is only the pod behind `<name>-primary`.
 */
export const mariadbMembers: MemberSource = {
  // the StatefulSet's selector labels (pkg/builder/labels), on every member pod
  pods: memberPods('app.kubernetes.io/name=mariadb'),
  expected: source =>
    ordinalPods(nameOf(source), asNumber(asRecord(source.spec)?.replicas) ?? 1, `${nameOf(source)}-internal`),
  role(source, _kind, name): MemberRole {
    const spec = asRecord(source.spec) ?? {};
    const status = asRecord(source.status) ?? {};
    const topology = mariadbTopologyOf(spec);
    if (topology === 'standalone') return { role: 'primary' };
    const current = asString(status.currentPrimary);
    const switched = findCondition(status, 'PrimarySwitched');
    // the time of the last switchover or failover, once it completed: when this pod became primary
    const since = current === name && switched?.status === 'True' ? switched.lastTransitionTime : undefined;
    if (topology === 'galera') return { role: 'member', engineRole: current === name ? 'Primary' : 'Member', ...(since ? { since } : {}) };
    const recorded = asString(asRecord(asRecord(status.replication)?.roles)?.[name]);
    const primary = recorded ? recorded === 'Primary' || recorded === 'PrimaryReplica' : current === name;
    return {
      role: primary ? 'primary' : 'replica',
      engineRole: recorded ?? (primary ? 'Primary' : 'Replica'),
      ...(primary && since ? { since } : {}),
    };
  },
};
