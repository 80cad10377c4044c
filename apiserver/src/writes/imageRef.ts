/**
 * Replaces the tag of an image reference, keeping registry and repository
 * (`registry:5000/library/mariadb:10.11@sha256:…` + `11.4` → `registry:5000/library/mariadb:11.4`).
 * A digest pins the old version, so it is dropped.
 */
export function withImageTag(image: string, tag: string): string {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  const repository = colon < 0 ? withoutDigest : withoutDigest.slice(0, colon);
  return `${repository}:${tag}`;
}

/**
 * Moves an image to another engine version, keeping how its tag spells versions: a `v`
 * prefix and a distribution suffix survive (`quay.io/opstree/redis:v7.0.12` + `7.0.15` →
 * `…:v7.0.15`; `rabbitmq:3.13.7-management` + `4.2.6` → `rabbitmq:4.2.6-management`).
 * A tag that names no version (`latest`, none) is replaced by `unversionedTag`.
 */
export function withVersion(
  image: string,
  version: string,
  unversionedTag = version,
): string {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  const tag = colon < 0 ? '' : withoutDigest.slice(colon + 1);
  const match = /^(v?)(\d+(?:\.\d+)*)(.*)$/.exec(tag);
  return withImageTag(
    image,
    match ? `${match[1]}${version}${match[3]}` : unversionedTag,
  );
}

/**
 * The image to run `version` with: the current image moved to it where there is one (so a
 * private registry or mirror survives an upgrade), else `<repository>:<version><suffix>`.
 */
export function imageAtVersion(
  current: unknown,
  version: string,
  repository: string,
  suffix = '',
): string {
  return typeof current === 'string' && current !== ''
    ? withVersion(current, version, `${version}${suffix}`)
    : `${repository}:${version}${suffix}`;
}
