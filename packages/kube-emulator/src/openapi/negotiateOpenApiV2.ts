/** Content-Type of the protobuf OpenAPI v2 document (kube-openapi answers it for both request types). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The older spelling kubectl ≤ 1.27 (client-go discovery) sends in Accept. */
export const OPENAPI_V2_PROTOBUF_DEPRECATED =
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** Representation of `/openapi/v2` chosen for a request. */
export type OpenApiV2Format = 'json' | 'protobuf';

// Offered in kube-openapi's order, which decides what a wildcard clause gets (JSON).
const OFFERS: Array<{ type: string; subtype: string; format: OpenApiV2Format }> = [
  { type: 'application', subtype: 'json', format: 'json' },
  {
    type: 'application',
    subtype: 'com.github.proto-openapi.spec.v2@v1.0+protobuf',
    format: 'protobuf',
  },
  {
    type: 'application',
    subtype: 'com.github.proto-openapi.spec.v2.v1.0+protobuf',
    format: 'protobuf',
  },
];

interface Clause {
  type: string;
  subtype: string;
  q: number;
  index: number;
}

/** Accept clauses in goautoneg's order: by q, then concrete types before wildcards, then as sent. */
function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  header.split(',').forEach((raw, index) => {
    const [media, ...params] = raw.split(';').map(s => s.trim().toLowerCase());
    const [type, given] = media.split('/');
    // goautoneg reads a bare `*` as `*/*` and drops other slash-less types
    if (given === undefined && type !== '*') return;
    const subtype = given ?? '*';
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!type || !subtype || !(q > 0)) return;
    clauses.push({ type, subtype, q, index });
  });
  const specificity = (c: Clause) => {
    if (c.type === '*') return 0;
    return c.subtype === '*' ? 1 : 2;
  };
  return clauses.sort(
    (a, b) => b.q - a.q || specificity(b) - specificity(a) || a.index - b.index,
  );
}

/**
 * Chooses JSON or protobuf for `GET /openapi/v2` from the Accept header as kube-openapi's
 * handler does (pkg/handler/handler.go): the first clause, in preference order, that matches
 * one of its offers wins; no header means any type (JSON). Undefined means 406 Not Acceptable.
 */
export function negotiateOpenApiV2(accept: string | undefined): OpenApiV2Format | undefined {
  const header = accept?.trim() ? accept : '*/*';
  for (const clause of parseAccept(header)) {
    for (const offer of OFFERS) {
      if (clause.type !== offer.type && clause.type !== '*') continue;
      if (clause.subtype !== offer.subtype && clause.subtype !== '*') continue;
      return offer.format;
    }
  }
  return undefined;
}
