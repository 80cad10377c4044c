import type { OperatorDemo } from '../types';

/** The demo's objects of this operator, and how its dialect says each reached its demo phase. */
export const rabbitmqDemo: OperatorDemo = {
  instances: [
    {
      kind: 'RabbitmqCluster',
      namespace: 'team-c',
      name: 'notifications-mq',
      component: 'notifications',
      phase: 'Ready',
      mode: 'ready',
      spec: {
        image: 'rabbitmq:4.2.6-management',
        replicas: 3,
        persistence: { storage: '10Gi' },
        resources: {
          requests: { cpu: '500m', memory: '1Gi' },
          limits: { cpu: '1', memory: '1Gi' },
        },
      },
    },
    {
      kind: 'RabbitmqCluster',
      namespace: 'team-c',
      name: 'notifications-events',
      component: 'notifications',
      phase: 'Pending',
      mode: 'stalled',
      spec: { replicas: 1 },
    },
  ],
  observedPhase: obj =>
    (obj.status as any)?.conditions?.every((c: any) => c.status === 'True')
      ? 'Ready'
      : 'other',
};
