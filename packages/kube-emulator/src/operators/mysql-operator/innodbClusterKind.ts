import type { CustomKind } from '../types';

/** InnoDBCluster (mysql.oracle.com/v2). Its own module: the operator and its backup side both read it. */
export const INNODBCLUSTER_KIND: CustomKind = {
  group: 'mysql.oracle.com',
  version: 'v2',
  plural: 'innodbclusters',
  kind: 'InnoDBCluster',
};
