import { asNumber, asRecord, asString, nameOf } from '../shared/read';
import { memberPods, ordinalPods, podLabel, type ExpectedMember, type MemberRole, type MemberSource } from '../shared/members';

// internal/controller/common/constants.go: what the operator last saw each pod be (INFO replication)
const ROLE = 'redis-role';

/**
 * redis-operator's members (internal/k8sutils): Redis `<name>-0`, RedisReplication `<name>-<i>`,
 * RedisSentinel `<name>-sentinel-<i>`, RedisCluster `<name>-leader-<i>` and
 * `<name>-follower-<i>`, each set named through `<set>-headless`. The operator relabels every
 * data pod `redis-role: master|slave` as it finds them (about every 10 s); a replication's
 * master is also `status.masterNode`. No time of a role change is recorded. A cluster has one
 * master per shard. The Sentinels a RedisReplication runs itself (`spec.sentinel`) are not
 * listed: the name of their StatefulSet is not documented.
 */
export const redisMembers: MemberSource = {
  // labels.go: every pod the operator makes carries its setup type
  pods: memberPods('redis_setup_type', { labels: [ROLE] }),
  expected(source, kind): ExpectedMember[] {
    const name = nameOf(source);
    const spec = asRecord(source.spec) ?? {};
    const size = asNumber(spec.clusterSize);
    const set = (sts: string, count: number) => ordinalPods(sts, count, `${sts}-headless`);
    switch (kind.kind) {
      case 'Redis':
        return set(name, 1);
      case 'RedisReplication':
        return set(name, size ?? 1);
      case 'RedisSentinel':
        return set(`${name}-sentinel`, size ?? 3);
      case 'RedisCluster':
        return [
          ...set(`${name}-leader`, asNumber(asRecord(spec.redisLeader)?.replicas) ?? size ?? 0),
          ...set(`${name}-follower`, asNumber(asRecord(spec.redisFollower)?.replicas) ?? size ?? 0),
        ];
      default:
        return [];
    }
  },
  role(source, kind, name, pod): MemberRole {
    if (kind.kind === 'RedisSentinel') return { role: 'member', engineRole: 'sentinel' };
    if (kind.kind === 'Redis') return { role: 'primary', engineRole: 'master' };
    const label = podLabel(pod, ROLE);
    let master: boolean;
    if (label) master = label === 'master';
    else if (kind.kind === 'RedisCluster') master = name.startsWith(`${nameOf(source)}-leader-`);
    else master = asString(asRecord(source.status)?.masterNode) === name;
    return { role: master ? 'primary' : 'replica', engineRole: label ?? (master ? 'master' : 'slave') };
  },
};
