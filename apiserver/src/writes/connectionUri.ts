/**
 * `scheme://user:password@host:port/path` with user and password URL-encoded (passwords hold
 * `@`, `:` and `/`). Without a user, a password alone is written as `:password@` (Redis).
 */
export function connectionUri(parts: {
  scheme: string;
  host: string;
  port: number;
  username?: string;
  password?: string;
  path?: string;
}): string {
  const user = parts.username ? encodeURIComponent(parts.username) : '';
  const password =
    parts.password !== undefined
      ? `:${encodeURIComponent(parts.password)}`
      : '';
  const auth = user || password ? `${user}${password}@` : '';
  return `${parts.scheme}://${auth}${parts.host}:${parts.port}${parts.path ?? ''}`;
}
