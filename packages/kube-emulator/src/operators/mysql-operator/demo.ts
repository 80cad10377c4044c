import type { OperatorDemo } from '../types';

/** The demo's objects of this operator, and how its dialect says each reached its demo phase. */
export const mysqlDemo: OperatorDemo = {
  instances: [
    {
      kind: 'InnoDBCluster',
      namespace: 'team-a',
      name: 'payments-db',
      component: 'payments',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        secretName: 'payments-db-root',
        version: '9.1.0',
        instances: 3,
        router: { instances: 1 },
        tlsUseSelfSigned: true,
        datadirVolumeClaimTemplate: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '20Gi' } },
        },
        // a dump of the whole instance to a volume, taken by the MySQLBackup of the demo
        backupProfiles: [
          {
            name: 'dump-to-volume',
            dumpInstance: { storage: { persistentVolumeClaim: { claimName: 'payments-db-backups' } } },
          },
        ],
      },
    },
  ],
  observedPhase: (obj, { allReady }) =>
    (obj.status as any)?.cluster?.status === 'ONLINE' && allReady
      ? 'Ready'
      : 'other',
};
