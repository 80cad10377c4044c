import { notAcceptable, notAcceptableMessage } from './StatusError';

/** A parsed `Accept` clause. */
export interface MediaClause {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** Parses an `Accept` header into clauses ordered by `q` (stable for equal q). */
export function parseAccept(header: string | undefined): MediaClause[] {
  if (!header || !header.trim()) return [];
  const clauses = header
    .split(',')
    .map((raw, index) => {
      const [range, ...paramParts] = raw.split(';').map(s => s.trim());
      const [type = '', subtype = ''] = range.toLowerCase().split('/');
      const params: Record<string, string> = {};
      for (const p of paramParts) {
        const eq = p.indexOf('=');
        if (eq < 0) continue;
        params[p.slice(0, eq).trim().toLowerCase()] = p
          .slice(eq + 1)
          .trim()
          .replace(/^"|"$/g, '');
      }
      const q = params.q !== undefined ? Number(params.q) : 1;
      return { type, subtype, params, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(c => c.type && c.q > 0);
  clauses.sort((a, b) => b.q - a.q || a.index - b.index);
  return clauses.map(({ index: _i, ...c }) => c);
}

/** What a resource response is transformed into (contract §8). */
export type TransformKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** The outcome of output negotiation for a resource request. */
export interface OutputFormat {
  /** Serialisation: JSON, or YAML when the client asked for it first. */
  encoding: 'json' | 'yaml';
  /** Transform target (`meta.k8s.io/<version>` kind), none for the plain object. */
  transform?: { kind: TransformKind; version: 'v1' | 'v1beta1' };
}

/** What the response is: one object, a list, or a watch stream of single objects. */
export type ResponseShape = 'object' | 'list' | 'watch';

function encodingOf(c: MediaClause, allowYaml: boolean): OutputFormat['encoding'] | undefined {
  if (c.type === '*' && c.subtype === '*') return 'json';
  if (c.type !== 'application') return undefined;
  if (c.subtype === 'json' || c.subtype === '*') return 'json';
  if (c.subtype === 'yaml' && allowYaml) return 'yaml';
  return undefined;
}

/**
 * Picks the first acceptable `Accept` clause for a resource GET/LIST/WATCH, as kube-apiserver's
 * negotiation does: JSON (or YAML outside watches) with an optional `as=Table` /
 * `as=PartialObjectMetadata[List]` transform in `meta.k8s.io` v1 or v1beta1. Protobuf, CBOR and
 * unknown transforms are skipped; nothing acceptable is a 406. A metadata transform that does not
 * fit the shape (PartialObjectMetadata on a list) is a 406 too.
 */
export function negotiateOutput(accept: string | undefined, shape: ResponseShape): OutputFormat {
  const clauses = parseAccept(accept);
  if (clauses.length === 0) return { encoding: 'json' };
  for (const c of clauses) {
    const encoding = encodingOf(c, shape !== 'watch');
    if (!encoding) continue;
    const as = c.params.as;
    if (!as) return { encoding };
    const g = c.params.g;
    const v = c.params.v;
    if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
    if (as === 'Table') return { encoding, transform: { kind: 'Table', version: v } };
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
      if (as === 'PartialObjectMetadata' && shape === 'list') {
        throw notAcceptableMessage(
          'you requested PartialObjectMetadata, but the requested object is a list (*v1.PartialObjectMetadataList)',
        );
      }
      if (as === 'PartialObjectMetadataList' && shape !== 'list') {
        throw notAcceptableMessage(
          'you requested PartialObjectMetadataList, but the requested object is not a list (*v1.PartialObjectMetadata)',
        );
      }
      return { encoding, transform: { kind: as, version: v } };
    }
  }
  throw notAcceptable();
}

/** True when some clause accepts plain JSON (`application/json`, `application/*`, `*\/*`) or none was given. */
export function acceptsJson(accept: string | undefined): boolean {
  const clauses = parseAccept(accept);
  return clauses.length === 0 || clauses.some(c => encodingOf(c, false) === 'json');
}
