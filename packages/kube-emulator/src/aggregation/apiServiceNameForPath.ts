/** `<version>.<group>` of the APIService a path belongs to (`/apis/g/v/...` or `/openapi/v3/apis/g/v`). */
export function apiServiceNameForPath(path: string): string | undefined {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  if (segments[0] === 'apis' && segments.length >= 3)
    return `${segments[2]}.${segments[1]}`;
  if (
    segments[0] === 'openapi' &&
    segments[1] === 'v3' &&
    segments[2] === 'apis' &&
    segments.length >= 5
  ) {
    return `${segments[4]}.${segments[3]}`;
  }
  return undefined;
}
