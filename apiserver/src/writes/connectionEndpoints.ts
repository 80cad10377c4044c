import type {
  ConnectionEndpoint,
  DatabaseInstance,
  Endpoint,
} from '@internal/plugin-databases-common';
import { connectionUri } from './connectionUri';

/** Credentials and URI shape shared by every endpoint of one instance. */
export interface UriShape {
  scheme: string;
  username?: string;
  password?: string;
  path?: string;
}

/**
 * The instance's endpoints (as its projection computed them) each with a URI, and the one
 * named `primaryName` (or the first) as the primary. `fallback` is used for an instance
 * that has no endpoints in its status.
 */
export function endpointsWithUris(
  instance: DatabaseInstance,
  fallback: Endpoint,
  uriFor: (endpoint: Endpoint) => UriShape | undefined,
  primaryName = 'primary',
): {
  primary: ConnectionEndpoint & { uri: string };
  endpoints: ConnectionEndpoint[];
} {
  const known = instance.status?.endpoints ?? [];
  const list = known.length > 0 ? known : [fallback];
  const endpoints: ConnectionEndpoint[] = list.map(e => {
    const shape = uriFor(e);
    return shape
      ? { ...e, uri: connectionUri({ ...shape, host: e.host, port: e.port }) }
      : { ...e };
  });
  const primary = endpoints.find(e => e.name === primaryName && e.uri) ??
    endpoints.find(e => e.uri) ?? {
      ...fallback,
      uri: connectionUri({
        scheme: 'tcp',
        ...uriFor(fallback),
        host: fallback.host,
        port: fallback.port,
      }),
    };
  return {
    primary: primary as ConnectionEndpoint & { uri: string },
    endpoints,
  };
}
