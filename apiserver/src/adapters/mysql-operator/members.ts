import { asArray, asNumber, asRecord, asString, nameOf } from '../shared/read';
import { memberPods, ordinalPods, podLabel, type MemberRole, type MemberSource } from '../shared/members';

const ROLE = 'mysql.oracle.com/cluster-role';
const MEMBERSHIP = 'mysql.oracle.com/membership-info';
const INSTANCE_TYPE = 'mysql.oracle.com/instance-type';

function membershipOf(annotations: Record<string, string> | undefined): Record<string, any> | undefined {
  const raw = annotations?.[MEMBERSHIP];
  if (!raw) return undefined;
  try {
    return asRecord(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/**
 * MySQL Operator's members: the StatefulSet `<name>`'s Group Replication members and each read
 * replica set `<name>-<replica>`, named through `<set>-instances`. The operator labels an ONLINE
 * member `mysql.oracle.com/cluster-role: PRIMARY|SECONDARY` (removed otherwise) and records its
 * Group Replication state, with the time it last changed, in `mysql.oracle.com/membership-info`.
 */
export const mysqlMembers: MemberSource = {
  // cluster_objects.py: the mysqld pods of every cluster (members and read replicas), not the routers
  pods: memberPods('component=mysqld,mysql.oracle.com/cluster', { labels: [ROLE, INSTANCE_TYPE], annotations: [MEMBERSHIP] }),
  expected(source) {
    const name = nameOf(source);
    const spec = asRecord(source.spec) ?? {};
    return [
      ...ordinalPods(name, asNumber(spec.instances) ?? 1, `${name}-instances`),
      ...asArray(spec.readReplicas)
        .map(asRecord)
        .filter((r): r is Record<string, any> => !!asString(r?.name))
        .flatMap(r => ordinalPods(`${name}-${r.name}`, asNumber(r.instances) ?? 1, `${name}-${r.name}-instances`)),
    ];
  },
  role(_source, _kind, _name, pod): MemberRole {
    if (podLabel(pod, INSTANCE_TYPE) === 'read-replica') return { role: 'replica', engineRole: 'READ_REPLICA' };
    const info = membershipOf(pod?.metadata?.annotations);
    const label = podLabel(pod, ROLE);
    const engineRole = label ?? asString(info?.status);
    const since = asString(info?.lastTransitionTime);
    return {
      role: label === 'PRIMARY' ? 'primary' : 'replica',
      ...(engineRole ? { engineRole } : {}),
      ...(since ? { since } : {}),
    };
  },
};
