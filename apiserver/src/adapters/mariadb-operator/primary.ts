import type { PhaseFacts } from '../../status/facts';
import { podReady } from '../shared/members';
import { asNumber, asRecord, asString, nameOf, namespaceOf } from '../shared/read';
import type { KubeObject, RelatedLookup, ResourceType } from '../types';
import type { PrimarySwitch } from '../../writes/primarySwitch';
import { mariadbTopologyOf } from './topology';

/** The StatefulSet ordinal of `member` (`<name>-<i>`), if it is one of this MariaDB's pods' names. */
function indexOf(object: KubeObject, member: string): number | undefined {
  const prefix = `${nameOf(object)}-`;
  const ordinal = member.startsWith(prefix) ? member.slice(prefix.length) : '';
  return /^(0|[1-9]\d*)$/.test(ordinal) ? Number(ordinal) : undefined;
}

const podIndexOf = (object: KubeObject) =>
  asNumber(asRecord(asRecord(asRecord(object.spec)?.replication)?.primary)?.podIndex);

/**
 * mariadb-operator replication's switchover: `spec.replication.primary.podIndex`, which "the
 * user may change ... to perform a manual switchover" (the CRD); the operator then reports
 * `Ready=False` reason SwitchPrimary until `status.currentPrimaryPodIndex` follows. Galera has
 * no primary to move (every member takes writes), a standalone server no other member.
 */
export const mariadbPrimary: PrimarySwitch = {
  read(object) {
    const index = podIndexOf(object);
    return index !== undefined && mariadbTopologyOf(asRecord(object.spec) ?? {}) === 'replication' ? `${nameOf(object)}-${index}` : undefined;
  },
  refusal(object) {
    const topology = mariadbTopologyOf(asRecord(object.spec) ?? {});
    if (topology === 'galera')
      return 'every member of a Galera cluster takes writes: there is no primary to switch over (mariadb-operator picks the pod behind its -primary Service itself)';
    if (topology === 'standalone') return 'a standalone MariaDB has one member: there is no other to switch over to';
    return undefined;
  },
  set(object, member) {
    // a member of the instance (switchoverRefusals): one of the StatefulSet's pods
    const index = indexOf(object, member);
    if (index === undefined) return;
    const spec = (object.spec ??= {}) as Record<string, any>;
    const replication = (spec.replication ??= {});
    replication.primary = { ...asRecord(replication.primary), podIndex: index };
  },
};

/** The pod a switchover goes to while the operator has not reported it yet, if one is under way. */
export function pendingSwitchover(source: KubeObject): string | undefined {
  const wanted = podIndexOf(source);
  const current = asNumber(asRecord(source.status)?.currentPrimaryPodIndex);
  if (wanted === undefined || current === undefined || wanted === current) return undefined;
  if (mariadbTopologyOf(asRecord(source.spec) ?? {}) !== 'replication') return undefined;
  return `${nameOf(source)}-${wanted}`;
}

/**
 * A switchover while the primary's pod is not ready is a failover (mariadb-operator's
 * autoFailover moved podIndex away from a lost primary, or the owner did): no member takes
 * writes until it is done, so the instance is Degraded with reason FailingOver, not Updating.
 * A primary pod the watch does not show (gone, or pods not watched) says nothing more than the
 * operator does.
 */
export function withFailover(facts: PhaseFacts, source: KubeObject, related: RelatedLookup, pods: ResourceType): PhaseFacts {
  if (facts.progress?.reason !== 'Switchover') return facts;
  const current = asString(asRecord(source.status)?.currentPrimary);
  const pod = current ? related.get({ type: pods, namespace: namespaceOf(source), name: current }) : undefined;
  if (!pod || podReady(pod)) return facts;
  const { progress, ...rest } = facts;
  return {
    ...rest,
    unhealthy: { reason: 'FailingOver', message: `The primary ${current} is not ready: ${progress.message ?? 'failing over'}` },
  };
}
