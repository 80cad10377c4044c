import {
  DATABASE_INSTANCE_CONNECTION_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
  type DatabaseInstanceConnection,
} from '@internal/plugin-databases-common';
import type { ConnectionDetails } from '../adapters/types';

/** Wraps an adapter's connection details into the `connection` subresource's wire object. */
export function toConnection(
  instance: DatabaseInstance,
  details: ConnectionDetails,
): DatabaseInstanceConnection {
  const { uid, resourceVersion } = instance.metadata;
  return {
    apiVersion:
      DATABASES_GROUP_VERSION as DatabaseInstanceConnection['apiVersion'],
    kind: DATABASE_INSTANCE_CONNECTION_KIND as DatabaseInstanceConnection['kind'],
    metadata: {
      name: instance.metadata.name ?? '',
      namespace: instance.metadata.namespace ?? 'default',
      ...(uid && { uid }),
      ...(resourceVersion && { resourceVersion }),
    },
    engine: instance.spec.engine,
    host: details.host,
    port: details.port,
    ...(details.username !== undefined && { username: details.username }),
    ...(details.password !== undefined && { password: details.password }),
    ...(details.database !== undefined && { database: details.database }),
    uri: details.uri,
    endpoints: details.endpoints,
    ...(details.secretRef && { secretRef: details.secretRef }),
  };
}
