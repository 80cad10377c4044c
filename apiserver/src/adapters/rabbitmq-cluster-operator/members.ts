import { asNumber, asRecord, nameOf } from '../shared/read';
import { memberPods, ordinalPods, type MemberSource } from '../shared/members';

/**
 * RabbitMQ cluster-operator's members: the StatefulSet `<name>-server`'s pods, named through the
 * headless `<name>-nodes` Service. All nodes are equal (queue leaders are per queue).
 */
export const rabbitmqMembers: MemberSource = {
  // internal/metadata/label.go: app.kubernetes.io/component is rabbitmq on every node pod
  pods: memberPods('app.kubernetes.io/component=rabbitmq'),
  expected: source => ordinalPods(`${nameOf(source)}-server`, asNumber(asRecord(source.spec)?.replicas) ?? 1, `${nameOf(source)}-nodes`),
  role: () => ({ role: 'member' }),
};
