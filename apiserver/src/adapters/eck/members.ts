import { asArray, asNumber, asRecord, asString, nameOf } from '../shared/read';
import { memberPods, ordinalPods, type ExpectedMember, type MemberSource } from '../shared/members';

const ROLE_PREFIX = 'elasticsearch.k8s.elastic.co/node-';
// pkg/controller/elasticsearch/label/label.go: one "true"/"false" label per node role
const ROLES = [
  'master',
  'data',
  'ingest',
  'ml',
  'transform',
  'remote_cluster_client',
  'voting_only',
  'data_content',
  'data_hot',
  'data_warm',
  'data_cold',
  'data_frozen',
];

const nodeSetsOf = (spec: unknown) =>
  asArray(asRecord(spec)?.nodeSets)
    .map(asRecord)
    .filter((n): n is Record<string, any> => !!asString(n?.name));

/**
 * ECK's members: each node set's StatefulSet `<name>-es-<set>`, whose pods its headless Service
 * of the same name names in DNS. Elasticsearch has no primary node (the elected master is not
 * published in the status): every node is a member, its roles (from its labels, or the node
 * set's `node.roles` while it has no pod) its engine role.
 */
export const eckMembers: MemberSource = {
  pods: memberPods('elasticsearch.k8s.elastic.co/cluster-name', { labels: ROLES.map(r => ROLE_PREFIX + r) }),
  expected(source): ExpectedMember[] {
    const name = nameOf(source);
    return nodeSetsOf(source.spec).flatMap(set => {
      const sts = `${name}-es-${set.name}`;
      return ordinalPods(sts, asNumber(set.count) ?? 0, sts);
    });
  },
  role(source, _kind, name, pod) {
    const fromLabels = ROLES.filter(r => pod?.metadata?.labels?.[ROLE_PREFIX + r] === 'true');
    const ordinal = (sts: string) => name.startsWith(`${sts}-`) && /^\d+$/.test(name.slice(sts.length + 1));
    const set = nodeSetsOf(source.spec).find(s => ordinal(`${nameOf(source)}-es-${s.name}`));
    // Elasticsearch reads `node.roles` flat or nested, both as the node set's config
    const config = asRecord(set?.config) ?? {};
    const configured = asArray(config['node.roles'] ?? asRecord(config.node)?.roles)
      .map(asString)
      .filter((r): r is string => !!r);
    const roles = pod?.metadata?.labels ? fromLabels : configured;
    return { role: 'member', ...(roles.length ? { engineRole: roles.join(',') } : {}) };
  },
};
