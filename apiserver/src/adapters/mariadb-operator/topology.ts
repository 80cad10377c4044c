import type { DatabaseTopology } from '@internal/plugin-databases-common';
import { asRecord } from '../shared/read';

/** A MariaDB's topology: Galera or replication when enabled in its spec, standalone otherwise. */
export function mariadbTopologyOf(spec: Record<string, any>): DatabaseTopology {
  if (asRecord(spec.galera)?.enabled === true) return 'galera';
  if (asRecord(spec.replication)?.enabled === true) return 'replication';
  return 'standalone';
}
