import type { OperatorDemo } from '../types';

const pgImage = (version: string) =>
  `ghcr.io/cloudnative-pg/postgresql:${version}-system-trixie`;

/** The demo's objects of this operator, and how its dialect says each reached its demo phase. */
export const cloudnativePgDemo: OperatorDemo = {
  instances: [
    // One PostgreSQL (CloudNativePG Cluster) per team: a primary with standbys, or a lone primary.
    {
      kind: 'Cluster',
      namespace: 'team-a',
      name: 'payments-pg',
      component: 'payments',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        instances: 3,
        imageName: pgImage('18.4'),
        storage: { size: '10Gi' },
        // backed up to an object store (the emulator treats any configured destination as reachable)
        backup: {
          barmanObjectStore: {
            destinationPath: 's3://demo-backups/team-a/payments-pg',
            s3Credentials: {
              accessKeyId: { name: 'payments-pg-backup-s3', key: 'ACCESS_KEY_ID' },
              secretAccessKey: { name: 'payments-pg-backup-s3', key: 'ACCESS_SECRET_KEY' },
            },
          },
          retentionPolicy: '30d',
        },
        resources: {
          requests: { cpu: '250m', memory: '512Mi' },
          limits: { memory: '1Gi' },
        },
      },
    },
    {
      kind: 'Cluster',
      namespace: 'team-b',
      name: 'checkout-pg',
      component: 'checkout',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        instances: 1,
        imageName: pgImage('17.10'),
        storage: { size: '5Gi' },
      },
    },
    {
      kind: 'Cluster',
      namespace: 'team-c',
      name: 'notifications-pg',
      component: 'notifications',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        instances: 2,
        imageName: pgImage('18.3'),
        storage: { size: '5Gi' },
      },
    },
  ],
  observedPhase: obj =>
    (obj.status as any)?.phase === 'Cluster in healthy state' &&
    (obj.status as any).readyInstances === (obj.spec as any).instances
      ? 'Ready'
      : 'other',
};
