import { describe, expect, it } from '@jest/globals';
import { harness, shape, condition, NS } from '../__testutils__/harness';
import { upstreamStatusSamples } from '../__testutils__/upstream';
import { MARIADB_KIND } from './mariadbOperator';

const samples = upstreamStatusSamples('mariadb-operator');
const sample = (file: string) => samples.find(s => s.file === file)!.status;
const upstreamReady = condition(
  sample('mariadb-ready.argocd-fixture.yaml'),
  'Ready',
);
const upstreamNotReady = condition(
  sample('mariadb-galera-not-ready.issue-768.status.yaml'),
  'Ready',
);
const upstreamFailed = condition(
  sample('mariadb-failed-error.argocd-fixture.yaml'),
  'Ready',
);
const upstreamRecovering = sample('mariadb-galera-recovering.docs.status.yaml');

const standalone = {
  image: 'mariadb:11.4.2',
  replicas: 1,
  storage: { size: '1Gi' },
};
const galera = {
  image: 'mariadb:11.4.2',
  replicas: 3,
  galera: { enabled: true },
  storage: { size: '1Gi' },
};

describe('mariadbOperator', () => {
  it('drives a new MariaDB from no status through not-ready to the upstream ready status', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'orders-db', standalone);
    expect(h.get(MARIADB_KIND, 'orders-db').status).toBeUndefined();
    h.emulator.tick();
    expect(
      shape(condition(h.get(MARIADB_KIND, 'orders-db').status, 'Ready')),
    ).toEqual(shape(upstreamNotReady));
    h.emulator.settle();
    const ready = h.get(MARIADB_KIND, 'orders-db').status as any;
    expect(shape(condition(ready, 'Ready'))).toEqual(shape(upstreamReady));
    expect(ready.replicas).toBe(1);
    expect(h.sts('orders-db')?.status).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      updatedReplicas: 1,
      currentReplicas: 1,
    });
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });

  it('creates the upstream dependents with owner references, and removes them when the MariaDB goes', () => {
    const h = harness();
    const cr = h.create(MARIADB_KIND, 'pay-db', galera);
    h.emulator.settle();
    expect(h.owned(cr).sort()).toEqual(
      [
        'secrets/pay-db-root',
        'services/pay-db',
        'services/pay-db-internal',
        'services/pay-db-primary',
        'services/pay-db-secondary',
        'statefulsets/pay-db',
      ].sort(),
    );
    const root = h.store.get(
      { group: '', version: 'v1', plural: 'secrets' },
      NS,
      'pay-db-root',
    ) as any;
    expect(
      Buffer.from(root.data.password, 'base64').toString().length,
    ).toBeGreaterThanOrEqual(16);
    h.store.delete(MARIADB_KIND, NS, 'pay-db');
    h.emulator.tick();
    expect(h.owned(cr)).toEqual([]);
    expect(h.names('statefulsets')).toEqual([]);
  });

  it('keeps a root Secret that already exists and creates the user Secret the spec refers to', () => {
    const h = harness();
    const secrets = { group: '', version: 'v1', plural: 'secrets' };
    h.store.create(secrets, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'mariadb', namespace: NS },
      data: { 'root-password': 'c2VjcmV0' },
    });
    h.create(MARIADB_KIND, 'app-db', {
      ...standalone,
      rootPasswordSecretKeyRef: { name: 'mariadb', key: 'root-password' },
      username: 'app',
      passwordSecretKeyRef: { name: 'app-db-password', key: 'password' },
    });
    h.emulator.settle();
    expect((h.store.get(secrets, NS, 'mariadb') as any).data).toEqual({
      'root-password': 'c2VjcmV0',
    });
    expect(
      Object.keys((h.store.get(secrets, NS, 'app-db-password') as any).data),
    ).toEqual(['password']);
  });

  it('reports Galera and the primary once ready', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'pay-db', galera);
    h.emulator.settle();
    const status = h.get(MARIADB_KIND, 'pay-db').status as any;
    expect(condition(status, 'GaleraReady')?.status).toBe('True');
    expect(status.currentPrimary).toBe('pay-db-0');
    expect(status.replicas).toBe(3);
  });

  it.each([
    ['an image change', (s: any) => (s.image = 'mariadb:11.4.3')],
    ['a scale-out', (s: any) => (s.replicas = 5)],
    ['a storage resize', (s: any) => (s.storage.size = '5Gi')],
  ])('rolls out %s as Updating, then Ready again', (_n, change) => {
    const h = harness();
    h.create(MARIADB_KIND, 'pay-db', galera);
    h.emulator.settle();
    h.patchSpec(MARIADB_KIND, 'pay-db', change);
    h.emulator.tick();
    const updating = h.get(MARIADB_KIND, 'pay-db').status as any;
    expect(shape(condition(updating, 'Ready'))).toMatchObject({
      status: 'False',
      reason: 'Updating',
    });
    expect(condition(updating, 'Updated')).toMatchObject({
      status: 'False',
      reason: 'Updating',
    });
    h.emulator.settle();
    const done = h.get(MARIADB_KIND, 'pay-db').status as any;
    expect(shape(condition(done, 'Ready'))).toEqual(shape(upstreamReady));
    expect(condition(done, 'Updated')).toMatchObject({
      status: 'True',
      reason: 'Updated',
    });
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });

  it('shows Galera recovery as the upstream docs do when degraded, and recovers when released', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'pay-db', galera);
    h.emulator.settle();
    h.emulator.setHealth(
      { kind: 'MariaDB', namespace: NS, name: 'pay-db' },
      'degraded',
    );
    h.emulator.tick();
    const status = h.get(MARIADB_KIND, 'pay-db').status as any;
    expect(shape(condition(status, 'GaleraReady'))).toEqual(
      shape(condition(upstreamRecovering, 'GaleraReady')),
    );
    expect(Object.keys(status.galeraRecovery).sort()).toEqual(
      Object.keys(upstreamRecovering.galeraRecovery).sort(),
    );
    const podState = (s: any) =>
      Object.keys(Object.values(s.galeraRecovery.state)[0] as object).sort();
    expect(podState(status)).toEqual(podState(upstreamRecovering));
    expect(h.sts('pay-db')?.status).toMatchObject({
      replicas: 3,
      readyReplicas: 2,
    });
    h.emulator.setHealth(
      { kind: 'MariaDB', namespace: NS, name: 'pay-db' },
      'ready',
    );
    h.emulator.settle();
    const after = h.get(MARIADB_KIND, 'pay-db').status as any;
    expect(shape(condition(after, 'Ready'))).toEqual(shape(upstreamReady));
    expect(after.galeraRecovery).toBeUndefined();
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });

  it('reports failure with the upstream reason and the given message', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'orders-db', standalone);
    h.emulator.settle();
    h.emulator.setHealth(
      { kind: 'MariaDB', namespace: NS, name: 'orders-db' },
      'failed',
      upstreamFailed.message,
    );
    h.emulator.tick();
    expect(
      shape(condition(h.get(MARIADB_KIND, 'orders-db').status, 'Ready')),
    ).toEqual(shape(upstreamFailed));
    expect(h.sts('orders-db')?.status).toMatchObject({ readyReplicas: 0 });
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });

  it('reports replication roles for a replicated MariaDB', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'repl', {
      image: 'mariadb:11.4.2',
      replicas: 3,
      replication: { enabled: true },
    });
    h.emulator.settle();
    const status = h.get(MARIADB_KIND, 'repl').status as any;
    expect(status.replication.roles).toEqual({
      'repl-0': 'Primary',
      'repl-1': 'Replica',
      'repl-2': 'Replica',
    });
    expect(condition(status, 'ReplicationConfigured')?.status).toBe('True');
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });
});
