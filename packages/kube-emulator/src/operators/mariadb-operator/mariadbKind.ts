import type { CustomKind } from '../types';

/** MariaDB (k8s.mariadb.com/v1alpha1); its own module, so that the backups' kind list can name it at load. */
export const MARIADB_KIND: CustomKind = {
  group: 'k8s.mariadb.com',
  version: 'v1alpha1',
  plural: 'mariadbs',
  kind: 'MariaDB',
};
