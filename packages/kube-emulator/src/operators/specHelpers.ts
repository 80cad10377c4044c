/** The tag of an image reference (`repo/name:tag@sha256:…` → `tag`), or undefined. */
export function imageTag(image: string | undefined): string | undefined {
  if (!image) return undefined;
  const noDigest = image.split('@')[0];
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > lastSlash ? noDigest.slice(colon + 1) : undefined;
}

/** A non-negative integer from a spec field, or the default. */
export function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : fallback;
}

/** Groups secret keys by secret name, so two refs to one Secret create it once with both keys. */
export function secretsByName(
  refs: Array<{ name: string; key: string }>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { name, key } of refs) {
    const keys = out.get(name) ?? [];
    if (!keys.includes(key)) keys.push(key);
    out.set(name, keys);
  }
  return out;
}
