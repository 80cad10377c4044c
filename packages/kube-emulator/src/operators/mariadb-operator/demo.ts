import type { StoredObject } from '../../store/types';
import type { OperatorDemo } from '../types';

const conditionOf = (o: StoredObject, type: string) =>
  ((o.status as any)?.conditions ?? []).find((c: any) => c.type === type);

/** The demo's objects of this operator, and how its dialect says each reached its demo phase. */
export const mariadbDemo: OperatorDemo = {
  instances: [
    {
      kind: 'MariaDB',
      namespace: 'team-a',
      name: 'orders-db',
      component: 'orders',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        image: 'mariadb:11.4.2',
        replicas: 3,
        galera: { enabled: true },
        rootPasswordSecretKeyRef: {
          name: 'orders-db-root',
          key: 'password',
          generate: true,
        },
        storage: { size: '10Gi', storageClassName: 'standard' },
        resources: {
          requests: { cpu: '500m', memory: '1Gi' },
          limits: { memory: '2Gi' },
        },
      },
    },
    {
      kind: 'MariaDB',
      namespace: 'team-a',
      name: 'payments-ledger',
      component: 'payments',
      phase: 'Degraded',
      mode: 'degraded',
      // the member that cannot rejoin keeps crashing while Galera recovers
      fault: 'crash-loop',
      spec: {
        image: 'mariadb:11.4.2',
        replicas: 3,
        galera: { enabled: true },
        storage: { size: '5Gi' },
      },
    },
    {
      kind: 'MariaDB',
      namespace: 'team-c',
      name: 'notifications-archive',
      component: 'notifications',
      phase: 'Failed',
      mode: 'failed',
      message: 'Error creating StatefulSet: exceeded quota: compute-resources',
      spec: {
        image: 'mariadb:10.11.9',
        replicas: 1,
        storage: { size: '50Gi' },
      },
    },
  ],
  observedPhase(obj) {
    const ready = conditionOf(obj, 'Ready');
    if (ready?.status === 'True') return 'Ready';
    if (ready?.reason === 'Failed') return 'Failed';
    if (
      conditionOf(obj, 'GaleraReady')?.status === 'False' &&
      (obj.status as any)?.galeraRecovery
    )
      return 'Degraded';
    return 'other';
  },
};
