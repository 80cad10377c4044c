import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { condition, harness, NS, shape } from '../__testutils__/harness';
import {
  UPSTREAM_OPERATORS_DIR,
  upstreamStatusSamples,
} from '../__testutils__/upstream';
import { RABBITMQCLUSTER_KIND } from './rabbitmqOperator';

const samples = upstreamStatusSamples('rabbitmq-cluster-operator');
const sample = (prefix: string) =>
  samples.find(s => s.file.startsWith(prefix))!.status;
const noEndpoints = sample('rabbitmqcluster-provisioning-no-endpoints');
const podsNotReady = sample('rabbitmqcluster-provisioning-pods-not-ready');
const healthy = sample('rabbitmqcluster-ready');
const readme = fs.readFileSync(
  path.join(UPSTREAM_OPERATORS_DIR, 'rabbitmq-cluster-operator/README.md'),
  'utf8',
);
const secretRow = readme
  .split('\n')
  .find(l => l.includes('`<n>-default-user`') && l.includes('keys'))!;
const documentedKeys = [
  ...secretRow.slice(secretRow.indexOf('keys')).matchAll(/`([^`]+)`/g),
]
  .map(m => m[1])
  .filter(k => !k.includes('<') && !k.startsWith('status.'));

const spec = {
  replicas: 3,
  persistence: { storage: '10Gi' },
  resources: {
    requests: { cpu: '250m', memory: '1Gi' },
    limits: { memory: '1Gi' },
  },
};
const shapes = (status: any) => status.conditions.map(shape);
const status = (h: ReturnType<typeof harness>) =>
  h.get(RABBITMQCLUSTER_KIND, 'events').status as any;

describe('rabbitmqOperator', () => {
  it('goes from no status through the upstream provisioning conditions to all four True', () => {
    const h = harness();
    h.create(RABBITMQCLUSTER_KIND, 'events', spec);
    expect(h.get(RABBITMQCLUSTER_KIND, 'events').status).toBeUndefined();
    h.emulator.settle();
    const trace = h.statuses(RABBITMQCLUSTER_KIND, 'events').map(shapes);
    expect(trace[0]).toEqual(shapes(noEndpoints));
    expect(trace).toContainEqual(shapes(podsNotReady));
    expect(trace[trace.length - 1]).toEqual(shapes(healthy));
    const s = status(h);
    expect(s.observedGeneration).toBe(1);
    expect(s.defaultUser).toEqual({
      secretReference: {
        name: 'events-default-user',
        namespace: NS,
        keys: { username: 'username', password: 'password' },
      },
      serviceReference: { name: 'events', namespace: NS },
    });
    expect(h.upstreamStatusErrors(RABBITMQCLUSTER_KIND)).toEqual([]);
  });

  it('creates <n>-server, <n>, <n>-nodes and the default user Secret with the documented keys', () => {
    expect(documentedKeys.length).toBeGreaterThan(4);
    const h = harness();
    const cr = h.create(RABBITMQCLUSTER_KIND, 'events', spec);
    h.emulator.settle();
    expect(h.owned(cr).sort()).toEqual(
      [
        'secrets/events-default-user',
        'secrets/events-erlang-cookie',
        'services/events',
        'services/events-nodes',
        'statefulsets/events-server',
      ].sort(),
    );
    const secret = h.store.get(
      { group: '', version: 'v1', plural: 'secrets' },
      NS,
      'events-default-user',
    ) as any;
    expect(Object.keys(secret.data).sort()).toEqual([...documentedKeys].sort());
    const decoded = (k: string) =>
      Buffer.from(secret.data[k], 'base64').toString();
    expect(decoded('connection_string')).toBe(
      `amqp://${decoded('username')}:${decoded('password')}@events.${NS}.svc:5672/`,
    );
    expect(h.sts('events-server')?.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
    });
  });

  it('scales out with AllReplicasReady False until the new pods are ready, then moves observedGeneration', () => {
    const h = harness();
    h.create(RABBITMQCLUSTER_KIND, 'events', spec);
    h.emulator.settle();
    h.patchSpec(RABBITMQCLUSTER_KIND, 'events', s => (s.replicas = 5));
    h.emulator.tick();
    expect(shape(condition(status(h), 'AllReplicasReady'))).toEqual({
      type: 'AllReplicasReady',
      status: 'False',
      reason: condition(podsNotReady, 'AllReplicasReady').reason,
      // the fourth pod is created this round, not ready yet
      message: '3/5 Pods ready',
    });
    expect(status(h).observedGeneration).toBe(2);
    h.emulator.settle();
    expect(shapes(status(h))).toEqual(shapes(healthy));
  });

  it('refuses a scale-down with ReconcileSuccess False and keeps observedGeneration', () => {
    const h = harness();
    h.create(RABBITMQCLUSTER_KIND, 'events', spec);
    h.emulator.settle();
    h.patchSpec(RABBITMQCLUSTER_KIND, 'events', s => (s.replicas = 1));
    h.emulator.settle();
    expect(condition(status(h), 'ReconcileSuccess')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedOperation',
    });
    expect(status(h).observedGeneration).toBe(1);
    expect(h.sts('events-server')?.spec).toMatchObject({ replicas: 3 });
    expect(h.upstreamStatusErrors(RABBITMQCLUSTER_KIND)).toEqual([]);
  });

  it.each([
    [
      'degraded',
      {
        AllReplicasReady: 'False',
        ClusterAvailable: 'True',
        ReconcileSuccess: 'True',
      },
      '2/3 Pods ready',
    ],
    [
      'failed',
      {
        AllReplicasReady: 'False',
        ClusterAvailable: 'False',
        ReconcileSuccess: 'False',
      },
      '0/3 Pods ready',
    ],
  ] as const)('reports %s on demand', (mode, expected, message) => {
    const h = harness();
    h.create(RABBITMQCLUSTER_KIND, 'events', spec);
    h.emulator.settle();
    h.emulator.setHealth(
      { kind: 'RabbitmqCluster', namespace: NS, name: 'events' },
      mode,
    );
    h.emulator.tick();
    const s = status(h);
    expect(
      Object.fromEntries(
        s.conditions
          .filter((c: any) => c.type !== 'NoWarnings')
          .map((c: any) => [c.type, c.status]),
      ),
    ).toEqual(expected);
    expect(condition(s, 'AllReplicasReady').message).toBe(message);
    expect(h.upstreamStatusErrors(RABBITMQCLUSTER_KIND)).toEqual([]);
  });

  it('warns when memory request and limit differ', () => {
    const h = harness();
    h.create(RABBITMQCLUSTER_KIND, 'events', {
      replicas: 1,
      resources: { requests: { memory: '1Gi' }, limits: { memory: '2Gi' } },
    });
    h.emulator.settle();
    expect(condition(status(h), 'NoWarnings')).toMatchObject({
      status: 'False',
      reason: 'MemoryRequestAndLimitDifferent',
    });
  });

  it('uses its deletion finalizer: dependents go, then the object', () => {
    const h = harness();
    const cr = h.create(RABBITMQCLUSTER_KIND, 'events', spec);
    h.emulator.settle();
    expect(h.get(RABBITMQCLUSTER_KIND, 'events').metadata.finalizers).toEqual([
      'deletion.finalizers.rabbitmqclusters.rabbitmq.com',
    ]);
    h.store.delete(RABBITMQCLUSTER_KIND, NS, 'events');
    h.emulator.settle();
    expect(h.store.get(RABBITMQCLUSTER_KIND, NS, 'events')).toBeUndefined();
    expect(h.owned(cr)).toEqual([]);
  });
});
