import type { ConnectionEndpoint } from '@internal/plugin-databases-common';
import type { ConnectionDetails } from '../adapters/types';

/** What differs between engines once the endpoints and their URIs are known. */
export interface Credentials {
  username?: string;
  password?: string;
  /** The database the application connects to, where the operator names one. */
  database?: string;
  /** The Secret the credentials come from; absent where the engine runs without one. */
  secretName?: string;
}

/**
 * Connection details from the primary endpoint (as `endpointsWithUris` picked it), every
 * endpoint, and the credentials. Absent credentials stay absent rather than empty, so a client
 * can tell "no password" from "empty password".
 */
export function connectionDetails(
  primary: ConnectionEndpoint & { uri: string },
  endpoints: ConnectionEndpoint[],
  { username, password, database, secretName }: Credentials,
): ConnectionDetails {
  return {
    host: primary.host,
    port: primary.port,
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
    ...(database !== undefined && { database }),
    uri: primary.uri,
    endpoints,
    ...(secretName && { secretRef: { name: secretName } }),
  };
}
