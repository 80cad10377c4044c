/** What every schema of ours is built with: names, the common fields, and the registry's enums. */
import { DATABASES_API_GROUP, DATABASES_API_VERSION } from '@internal/plugin-databases-common';
import { adapters, topologyNames } from '../adapters/registry';
import type { Schema } from './types';

/** Every topology any engine offers; each engine supports a subset (see DatabaseEngine). */
export const TOPOLOGIES: readonly string[] = topologyNames();

/** `mariadb standalone|replication|galera, ...`: what each served engine offers, from its adapter. */
export const topologiesPerEngine = adapters
  .map(a => `${a.engine} ${(a.write?.topologies ?? a.kinds.flatMap(k => k.topologies)).join('|')}`)
  .join(', ');

/** Schema-name prefix: the group reversed, as Kubernetes' generator names definitions. */
export const SCHEMA_PREFIX = `${DATABASES_API_GROUP.split('.').reverse().join('.')}.${DATABASES_API_VERSION}`;
/** Full schema name of one of our types. */
export const schemaName = (type: string) => `${SCHEMA_PREFIX}.${type}`;

export const gvk = (kind: string) => [{ group: DATABASES_API_GROUP, kind, version: DATABASES_API_VERSION }];
export const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
export const API_VERSION = str(
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
);
export const KIND = str(
  'Kind is a string value representing the REST resource this object represents. In CamelCase.',
);
export const quantity = (description: string) =>
  str(`${description} A Kubernetes quantity, e.g. 500m, 1Gi.`);

