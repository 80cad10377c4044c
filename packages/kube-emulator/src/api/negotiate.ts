import { errors } from './status';

/** What the response body should be, from the Accept header (contract §8.1). */
export type OutputTarget =
  'json' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

interface Clause {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string): Clause[] {
  return header
    .split(',')
    .map(raw => {
      const [type, ...rest] = raw.split(';').map(s => s.trim());
      const params: Record<string, string> = {};
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0)
          params[p.slice(0, eq).trim().toLowerCase()] = p
            .slice(eq + 1)
            .trim()
            .replace(/^"|"$/g, '');
      }
      const q = params.q !== undefined ? Number(params.q) : 1;
      return { type: type.toLowerCase(), params, q: Number.isNaN(q) ? 1 : q };
    })
    .filter(c => c.type)
    .map((c, i) => ({ ...c, i }))
    .sort((a, b) => b.q - a.q || a.i - b.i);
}

/**
 * Picks the output for a resource request: plain JSON, Table, or PartialObjectMetadata(List),
 * trying Accept clauses in preference order. Throws 406 when nothing acceptable is offered.
 */
export function negotiateOutput(accept: string | undefined): OutputTarget {
  if (!accept || !accept.trim()) return 'json';
  for (const c of parseAccept(accept)) {
    if (c.q <= 0) continue;
    if (
      c.type !== 'application/json' &&
      c.type !== 'application/*' &&
      c.type !== '*/*'
    )
      continue;
    const as = c.params.as;
    if (!as) return 'json';
    if (
      c.params.g !== 'meta.k8s.io' ||
      (c.params.v !== 'v1' && c.params.v !== 'v1beta1')
    )
      continue;
    if (
      as === 'Table' ||
      as === 'PartialObjectMetadata' ||
      as === 'PartialObjectMetadataList'
    )
      return as;
  }
  throw errors.notAcceptable();
}

/** True when the Accept header asks for aggregated discovery v2 (`as=APIGroupDiscoveryList`, `v=v2`). */
export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  if (!accept) return false;
  for (const c of parseAccept(accept)) {
    if (c.type !== 'application/json') continue;
    if (
      c.params.as === 'APIGroupDiscoveryList' &&
      c.params.g === 'apidiscovery.k8s.io' &&
      c.params.v === 'v2'
    )
      return true;
    if (!c.params.as) return false;
  }
  return false;
}
