/**
 * The JSONPath subset CRD additionalPrinterColumns use: `.a.b`, `['a']`, `[0]`, `[*]` and
 * filters `[?(@.type=="Ready")]` (== or !=, single or double quotes). Returns every match.
 */
export function evaluateJsonPath(root: unknown, path: string): unknown[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  if (p.startsWith('$')) p = p.slice(1);
  let current: unknown[] = [root];
  let i = 0;
  while (i < p.length && current.length) {
    if (p[i] === '.') {
      i++;
      let j = i;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      const field = p.slice(i, j);
      i = j;
      if (field) current = current.flatMap(v => child(v, field));
    } else if (p[i] === '[') {
      const end = closingBracket(p, i);
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      current = current.flatMap(v => subscript(v, inner));
    } else {
      return [];
    }
  }
  return current;
}

function closingBracket(p: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < p.length; i++) {
    const c = p[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return p.length;
}

function child(v: unknown, field: string): unknown[] {
  if (field === '*') {
    if (Array.isArray(v)) return v;
    return v && typeof v === 'object' ? Object.values(v) : [];
  }
  if (v && typeof v === 'object' && !Array.isArray(v) && field in (v as object))
    return [(v as any)[field]];
  return [];
}

function subscript(v: unknown, inner: string): unknown[] {
  if (inner === '*') return child(v, '*');
  if (/^-?\d+$/.test(inner)) {
    if (!Array.isArray(v)) return [];
    const n = Number(inner);
    const item = v[n < 0 ? v.length + n : n];
    return item === undefined ? [] : [item];
  }
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  if (quoted) return child(v, quoted[2]);
  const filter =
    /^\?\(\s*@((?:\.[^=!<>\s]+)+)\s*(==|!=)\s*(?:(['"])(.*?)\3|([^)\s]+))\s*\)$/.exec(
      inner,
    );
  if (filter && Array.isArray(v)) {
    const [, fieldPath, op, , quotedValue, bare] = filter;
    const expected = quotedValue ?? bare;
    return v.filter(item => {
      const got = evaluateJsonPath(item, fieldPath)[0];
      const equal = got !== undefined && String(got) === expected;
      return op === '==' ? equal : !equal;
    });
  }
  return [];
}
