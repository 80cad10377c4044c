import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { loadCompactCrds } from '@internal/kube-emulator';
import { startSystem, type System } from '../support/startSystem';
import { checkEventStream } from './support/checkEventStream';
import { eventually } from './support/eventually';
import { comparable, untilServedIsTruth } from './support/freshProjection';
import { kubeHttp } from './support/kubeHttp';
import { RecordingInformer } from './support/RecordingInformer';

const INSTANCES = '/apis/dbaas.platform.dev/v1alpha1/databaseinstances';
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };
const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' };
const RABBITMQS = { group: 'rabbitmq.com', version: 'v1beta1', plural: 'rabbitmqclusters' };
const ELASTICSEARCHES = { group: 'elasticsearch.k8s.elastic.co', version: 'v1', plural: 'elasticsearches' };

const mariadb = (name: string, namespace = 'team-a', replicas = 1) => ({
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'MariaDB',
  metadata: { name, namespace },
  spec: { replicas, storage: { size: '1Gi' } },
});

/** What the informer received of one instance (`namespace/name`), with its lists and watches. */
function received(informer: RecordingInformer, key: string): string[] {
  return informer.records.flatMap((r, i) => {
    if (r.kind === 'event' && r.object.key === key) return [`#${i} ${r.type}@${r.object.resourceVersion} ${r.object.content}`];
    if (r.kind === 'list') return [`#${i} list@${r.resourceVersion}: ${r.items.find(o => o.key === key)?.content ?? '(absent)'}`];
    if (r.kind === 'watch') return [`#${i} watch from ${r.from}`];
    return [];
  });
}

/** The instances the informer holds wrong, what it received of each, and the stream's violations. */
function explainDifference(cached: Record<string, unknown>, truth: Record<string, unknown>, informer: RecordingInformer): string {
  const { violations } = checkEventStream(informer.records);
  const wrong = [...new Set([...Object.keys(cached), ...Object.keys(truth)])].filter(
    k => JSON.stringify(cached[k]) !== JSON.stringify(truth[k]),
  );
  return [
    `violations: ${JSON.stringify(violations)}`,
    ...wrong.map(k => [`${k}:`, `  cached ${JSON.stringify(cached[k])}`, `  truth  ${JSON.stringify(truth[k])}`, ...received(informer, k).map(l => `  ${l}`)].join('\n')),
  ].join('\n');
}

/**
 * One client-node informer on every databaseinstance, through the aggregation layer, lives
 * through every fault below; after each one the instances served, the informer's cache and a
 * fresh projection of the cluster must be the same, and the events it received consistent.
 */
describe('watch faults under a client-node informer', () => {
  let system: System;
  let kc: KubeConfig;
  let informer: RecordingInformer;

  /** Served list = fresh projection = the informer's cache, and the stream so far is consistent. */
  async function expectTruth(step: string) {
    system.emulator.operators.settle();
    const truth = JSON.stringify(await untilServedIsTruth(system, async () => (await kubeHttp(kc, 'GET', INSTANCES)).body.items, step));
    await eventually(
      () => JSON.stringify(comparable(informer.list())) === truth,
      10_000,
      () => `${step}: the informer's cache differs from the truth\n${explainDifference(comparable(informer.list()), JSON.parse(truth), informer)}`,
    );
    const { violations } = checkEventStream(informer.records);
    if (violations.length) {
      const keys = [...new Set(violations.map(v => / (\S+\/\S+)@/.exec(v)?.[1] ?? ''))];
      throw new Error(`${step}: the event stream is inconsistent\n${violations.join('\n')}\n${keys.map(k => received(informer, k).join('\n')).join('\n')}`);
    }
  }

  beforeAll(async () => {
    system = await startSystem({ seed: true, heartbeatMs: 1000, bookmarkIntervalMs: 1000 });
    system.emulator.operators.settle();
    kc = new KubeConfig();
    kc.loadFromString(system.emulator.kubeconfig('admin'));
    informer = new RecordingInformer(kc, INSTANCES);
    await informer.start();
  }, 60_000);
  afterAll(async () => {
    await informer?.stop();
    system?.emulator.setFault('none');
    await system?.stop();
  });

  it('410: the apiserver\'s watches expire while it missed changes; it re-lists and tells clients exactly what changed', async () => {
    const seenBefore = BigInt(system.apiserver.store.resourceVersion());
    system.emulator.setFault('unavailable', { scope: 'storage' });
    const store = system.emulator.store;
    store.create(MARIADBS, mariadb('missed-create'));
    store.delete(ELASTICSEARCHES, 'team-b', 'search-logs');
    system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'payments-ledger' }, 'ready');
    system.emulator.operators.settle();
    // compacted while the apiserver was away: its resume RVs are gone
    system.emulator.expireWatches();
    // no watch can resume from anything the apiserver held: only a re-list shows what it missed
    expect(BigInt(system.emulator.store.oldestRV())).toBeGreaterThan(seenBefore);
    system.emulator.setFault('none');
    await expectTruth('after 410');
    const names = informer.list().map(i => i.metadata!.name);
    expect(names).toContain('missed-create');
    expect(names).not.toContain('search-logs');
  }, 45_000);

  it('a CRD deleted and re-created: its instances go away and come back as new objects', async () => {
    const crd = structuredClone(system.emulator.store.get(CRDS, undefined, 'rabbitmqclusters.rabbitmq.com')!);
    system.emulator.store.delete(CRDS, undefined, 'rabbitmqclusters.rabbitmq.com');
    await expectTruth('CRD deleted');
    expect(informer.list().some(i => (i as any).spec.engine === 'rabbitmq')).toBe(false);

    const fresh = loadCompactCrds().find(c => c.metadata.name === 'rabbitmqclusters.rabbitmq.com')!;
    expect(fresh.metadata.uid).toBeUndefined(); // a new object, not the old one restored
    system.emulator.store.create(CRDS, fresh);
    expect(system.emulator.store.get(CRDS, undefined, 'rabbitmqclusters.rabbitmq.com')!.metadata.uid).not.toBe(crd.metadata.uid);
    system.emulator.store.create(RABBITMQS, {
      apiVersion: 'rabbitmq.com/v1beta1',
      kind: 'RabbitmqCluster',
      metadata: { name: 'notifications-mq', namespace: 'team-c' },
      spec: { replicas: 1 },
    });
    await expectTruth('CRD re-created');
    expect(informer.list().find(i => i.metadata!.name === 'notifications-mq')).toBeDefined();
  }, 45_000);

  it('an operator object deleted and re-created under the same name: DELETED then ADDED with the new uid, also within one batch', async () => {
    const store = system.emulator.store;
    const before = store.get(MARIADBS, 'team-a', 'orders-db')!.metadata.uid;
    // both changes inside the apiserver's 50 ms batch window
    store.delete(MARIADBS, 'team-a', 'orders-db');
    store.create(MARIADBS, mariadb('orders-db', 'team-a', 3));
    const after = store.get(MARIADBS, 'team-a', 'orders-db')!.metadata.uid;
    expect(after).not.toBe(before);
    await expectTruth('re-created at once');
    expect(informer.list().find(i => i.metadata!.name === 'orders-db')!.metadata!.uid).toBe(after);

    // and with time between the two
    store.delete(MARIADBS, 'team-a', 'orders-db');
    await eventually(() => !informer.list().some(i => i.metadata!.name === 'orders-db'));
    store.create(MARIADBS, mariadb('orders-db', 'team-a', 1));
    await expectTruth('re-created later');
    const events = informer.records.filter(r => r.kind === 'event' && r.object.key === 'team-a/orders-db').map(r => (r.kind === 'event' ? r.type : ''));
    expect(events.filter(t => t === 'DELETED').length).toBe(2);
    expect(events.filter(t => t === 'ADDED').length).toBe(2);
  }, 45_000);

  it('a resourceVersion jump: events follow at the new RVs, and a watch resumed from before the jump still works', async () => {
    const beforeJump = (await kubeHttp(kc, 'GET', INSTANCES)).body.metadata.resourceVersion;
    system.emulator.store.advanceResourceVersion(5_000_000);
    system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'payments-ledger' }, 'failed', 'disk full after the jump');
    await expectTruth('after the jump');
    const ledger = informer.list().find(i => i.metadata!.name === 'payments-ledger')!;
    expect(BigInt(ledger.metadata!.resourceVersion!)).toBeGreaterThan(BigInt(beforeJump) + 5_000_000n);
    const resumed = await kubeHttp(kc, 'GET', `${INSTANCES}?watch=true&resourceVersion=${beforeJump}&timeoutSeconds=1`);
    expect(resumed.status).toBe(200);
    const lines = resumed.text.split('\n').filter(Boolean).map(l => JSON.parse(l));
    expect(lines.map(l => l.type)).not.toContain('ERROR');
    expect(lines.some(l => l.object.metadata.name === 'payments-ledger')).toBe(true);

    const stream = checkEventStream(informer.records);
    expect(stream.violations).toEqual([]);
    // the client relisted only when its own watch could not resume (never, here)
    expect(stream.lists).toBe(1);
  }, 45_000);
});
