/**
 * `key=value` requirements of an equality-only label selector (`a=b,c==d`); [] for none;
 * undefined for anything else (set-based or negated requirements are left to the cluster).
 */
export function equalitySelector(selector: string | undefined): Array<[string, string]> | undefined {
  if (!selector?.trim()) return [];
  const out: Array<[string, string]> = [];
  for (const part of selector.split(',')) {
    const m = /^\s*([A-Za-z0-9._/-]+)\s*==?\s*([A-Za-z0-9._-]*)\s*$/.exec(part);
    if (!m) return undefined;
    out.push([m[1], m[2]]);
  }
  return out;
}
