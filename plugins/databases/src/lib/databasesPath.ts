/** What the databases page shows for a location. */
export type DatabasesView =
  | { view: 'list' }
  | { view: 'request' }
  | { view: 'instance'; cluster: string; namespace: string; name: string };

/**
 * Matches a pathname below the page's base path. The page routes itself this way so one
 * component works mounted by either frontend system, at whatever path the app chose.
 */
export function matchDatabasesPath(pathname: string, basePath: string): DatabasesView | undefined {
  const base = basePath.replace(/\/+$/, '');
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  const parts = pathname
    .slice(base.length)
    .split('/')
    .filter(Boolean)
    .map(p => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  if (parts.length === 0) return { view: 'list' };
  if (parts.length === 1 && parts[0] === 'request') return { view: 'request' };
  if (parts.length === 3) {
    const [cluster, namespace, name] = parts;
    return { view: 'instance', cluster, namespace, name };
  }
  return undefined;
}

/** Path of an instance's page below the base path. */
export function instancePath(basePath: string, ref: { cluster: string; namespace: string; name: string }): string {
  const e = encodeURIComponent;
  return `${basePath.replace(/\/+$/, '')}/${e(ref.cluster)}/${e(ref.namespace)}/${e(ref.name)}`;
}
