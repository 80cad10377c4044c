import type { ResourceDefinition } from '../store/types';

const VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];
const STATUS_VERBS = ['get', 'patch', 'update'];

/** An API group as listed in `/apis`. */
export interface DiscoveryGroup {
  name: string;
  versions: string[];
  preferredVersion: string;
}

/**
 * Kubernetes version priority (GA > beta > alpha, then higher numbers first, non-kube-like last
 * alphabetically), which decides the preferred version of a group.
 */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return { rank: 0, major: 0, minor: 0 };
    const ranks: Record<string, number> = { alpha: 1, beta: 2 };
    const rank = m[2] === undefined ? 3 : ranks[m[2]];
    return { rank, major: Number(m[1]), minor: Number(m[3] ?? 0) };
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa.rank !== pb.rank) return pb.rank - pa.rank;
  if (pa.rank === 0) return a.localeCompare(b);
  return pb.major - pa.major || pb.minor - pa.minor;
}

const gv = (group: string, version: string) =>
  group ? `${group}/${version}` : version;

/** Groups served from the store (without the core group), merged with aggregated ones. */
export function discoveryGroups(
  resources: ResourceDefinition[],
  aggregated: DiscoveryGroup[] = [],
): DiscoveryGroup[] {
  const versions = new Map<string, Set<string>>();
  for (const r of resources) {
    if (!r.group) continue;
    if (!versions.has(r.group)) versions.set(r.group, new Set());
    versions.get(r.group)!.add(r.version);
  }
  const groups: DiscoveryGroup[] = [...versions.entries()].map(([name, vs]) => {
    const sorted = [...vs].sort(compareKubeVersions);
    return { name, versions: sorted, preferredVersion: sorted[0] };
  });
  for (const g of aggregated) {
    if (!groups.some(x => x.name === g.name)) groups.push(g);
  }
  return groups.sort((a, b) => a.name.localeCompare(b.name));
}

function apiGroup(g: DiscoveryGroup) {
  return {
    name: g.name,
    versions: g.versions.map(v => ({
      groupVersion: gv(g.name, v),
      version: v,
    })),
    preferredVersion: {
      groupVersion: gv(g.name, g.preferredVersion),
      version: g.preferredVersion,
    },
  };
}

/** `GET /apis` (v1 APIGroupList). */
export function apiGroupList(groups: DiscoveryGroup[]) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map(apiGroup),
  };
}

/** `GET /apis/<group>` (APIGroup). */
export function apiGroupDocument(group: DiscoveryGroup) {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) };
}

/** `GET /api` (APIVersions). */
export function apiVersions(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** `GET /api/v1` or `GET /apis/<group>/<version>` (APIResourceList), or undefined when nothing is served there. */
export function apiResourceList(
  resources: ResourceDefinition[],
  group: string,
  version: string,
) {
  const here = resources.filter(
    r => r.group === group && r.version === version,
  );
  if (here.length === 0) return undefined;
  const list: Array<Record<string, unknown>> = [];
  for (const r of [...here].sort((a, b) => a.plural.localeCompare(b.plural))) {
    list.push({
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: VERBS,
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    });
    if (r.statusSubresource) {
      list.push({
        name: `${r.plural}/status`,
        singularName: '',
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: STATUS_VERBS,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: gv(group, version),
    resources: list,
  };
}
