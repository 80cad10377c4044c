import {
  ANNOTATION_OWNER,
  DATABASE_PHASES,
  type DatabaseEngineName,
  type DatabasePhase,
  type ListInstancesResponse,
  type PortalInstance,
} from '@internal/plugin-databases-common';

/** The in-memory part of `GET /instances`: filters the clusters could not apply, then sorts and pages. */
export interface InstanceQuery {
  engine?: DatabaseEngineName;
  phase?: DatabasePhase;
  owner?: string;
  q?: string;
  sort?: string;
  limit: number;
  cursor?: string;
}

const phaseOf = (p: PortalInstance): DatabasePhase => p.instance.status?.phase ?? 'Unknown';
const ownerOf = (p: PortalInstance) => p.instance.metadata.annotations?.[ANNOTATION_OWNER] ?? '';

const SORT_KEYS: Record<string, (p: PortalInstance) => string | number> = {
  name: p => p.instance.metadata.name ?? '',
  namespace: p => p.instance.metadata.namespace ?? '',
  cluster: p => p.cluster,
  engine: p => p.instance.spec.engine,
  owner: ownerOf,
  phase: p => DATABASE_PHASES.indexOf(phaseOf(p)),
  // Age ascending = oldest first, like kubectl's AGE column read top-down.
  age: p => -Date.parse(p.instance.metadata.creationTimestamp ?? '') || 0,
};

/** Names accepted by `sort` (each optionally prefixed with `-`). */
export const SORT_NAMES = Object.keys(SORT_KEYS);

/** Opaque cursor = base64url of the offset. */
export const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
export function decodeCursor(cursor: string): number | undefined {
  const match = /^o:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** Filters, counts, sorts (stable, by cluster/namespace/name within equal keys) and pages. */
export function queryInstances(
  items: PortalInstance[],
  query: InstanceQuery,
  offset: number,
): Omit<ListInstancesResponse, 'errors'> {
  const q = query.q?.toLowerCase();
  const matching = items.filter(p => {
    if (query.engine && p.instance.spec.engine !== query.engine) return false;
    if (query.phase && phaseOf(p) !== query.phase) return false;
    if (query.owner && ownerOf(p) !== query.owner) return false;
    if (q) {
      const hay = [
        p.instance.metadata.name,
        p.instance.metadata.namespace,
        p.instance.spec.engine,
        ownerOf(p),
        p.cluster,
      ].join(' ').toLowerCase();
      if (!hay.includes(q)) return false;
    }
    return true;
  });
  const byPhase: Partial<Record<DatabasePhase, number>> = {};
  const byEngine: Partial<Record<DatabaseEngineName, number>> = {};
  for (const p of matching) {
    byPhase[phaseOf(p)] = (byPhase[phaseOf(p)] ?? 0) + 1;
    byEngine[p.instance.spec.engine] = (byEngine[p.instance.spec.engine] ?? 0) + 1;
  }
  const sort = query.sort ?? 'name';
  const desc = sort.startsWith('-');
  const key = SORT_KEYS[desc ? sort.slice(1) : sort] ?? SORT_KEYS.name;
  const identity = (p: PortalInstance) =>
    `${p.cluster}/${p.instance.metadata.namespace}/${p.instance.metadata.name}`;
  // Keys are computed once per item, not once per comparison: sorting 10,000 instances this
  // way takes a few milliseconds instead of most of the request.
  const keyed = matching.map(p => ({ p, k: key(p), id: identity(p) }));
  keyed.sort((a, b) => {
    let c = 0;
    if (a.k < b.k) c = -1;
    else if (a.k > b.k) c = 1;
    if (desc) c = -c;
    return c !== 0 ? c : a.id.localeCompare(b.id);
  });
  const page = keyed.slice(offset, offset + query.limit).map(x => x.p);
  const next = offset + query.limit;
  return {
    items: page,
    totalItems: matching.length,
    counts: { byPhase, byEngine },
    ...(next < matching.length ? { nextCursor: encodeCursor(next) } : {}),
  };
}
