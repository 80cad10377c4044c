import type { CustomKind } from '../types';

/** MySQLBackup (mysql.oracle.com/v2), in its own module: the schedules' Jobs create them too. */
export const MYSQLBACKUP_KIND_REF: CustomKind = {
  group: 'mysql.oracle.com',
  version: 'v2',
  plural: 'mysqlbackups',
  kind: 'MySQLBackup',
};
