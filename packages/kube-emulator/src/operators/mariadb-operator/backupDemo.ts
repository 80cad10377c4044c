import { FAIL_BACKUP_ANNOTATION } from '../BackupEmulator';
import type { DemoBackup } from '../types';

/** team-a's orders-db: one on-demand Backup that succeeds and one that fails (the fail switch). */
export const mariadbBackupDemo: DemoBackup[] = [
  {
    kind: 'Backup',
    namespace: 'team-a',
    name: 'orders-db-nightly-check',
    spec: {
      mariaDbRef: { name: 'orders-db' },
      storage: { persistentVolumeClaim: { resources: { requests: { storage: '10Gi' } }, accessModes: ['ReadWriteOnce'] } },
    },
  },
  {
    kind: 'Backup',
    namespace: 'team-a',
    name: 'orders-db-before-migration',
    annotations: { [FAIL_BACKUP_ANNOTATION]: 'true' },
    spec: {
      mariaDbRef: { name: 'orders-db' },
      storage: { persistentVolumeClaim: { resources: { requests: { storage: '10Gi' } }, accessModes: ['ReadWriteOnce'] } },
    },
  },
];
