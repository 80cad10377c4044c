import https from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeEmulator } from '@internal/kube-emulator';
import { checkEventStream } from './support/checkEventStream';
import { eventually } from './support/eventually';
import { apiserverFiles, probe, spawnApiserver, type ApiserverProcess } from './support/spawnApiserver';
import { WatchClient, type WatchTarget } from './support/WatchClient';
import { upstreamCrds } from '../support/upstreamCrds';

const WATCHES = 1000;
const IN_FLIGHT = 10;
const SHUTDOWN_DELAY_MS = 1500;
const GRACE_MS = 10_000;
const INSTANCES = '/apis/dbaas.platform.dev/v1alpha1/databaseinstances';

/** What a watcher got since it last (re)opened its watch, for a failure message. */
function describeSince(w: WatchClient | undefined): string {
  if (!w) return 'nothing';
  const since = w.records.map(r => r.kind).lastIndexOf('watch');
  const got = w.records.slice(since).map(r => {
    if (r.kind === 'event') return `${r.type} ${r.object.key}@${r.object.resourceVersion} ${/"phase":"(\w+)"/.exec(r.object.content)?.[1] ?? ''}`;
    if (r.kind === 'error') return `ERROR ${r.code}`;
    return r.kind === 'watch' ? `watch from ${r.from}` : r.kind;
  });
  return `${got.slice(0, 20).join('; ')}; open ${w.opened}; ends ${JSON.stringify(w.ends.map(e => e.how))}`;
}

/**
 * Two apiserver replicas as processes behind one emulated cluster; clients talk to them the way
 * kube-apiserver's aggregator does (front-proxy client certificate, X-Remote-* headers).
 */
describe('SIGTERM with 1,000 open watches and requests in flight', () => {
  let emulator: KubeEmulator;
  let dir: string;
  let a: ApiserverProcess;
  let b: ApiserverProcess;
  let agent: https.Agent;
  const headers = { 'X-Remote-User': 'watcher', 'X-Remote-Group': 'system:masters' };

  const request = (port: number, method: string, pathname: string, body?: unknown) =>
    new Promise<{ status: number; json: any; at: number }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = https.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: pathname,
          agent,
          headers: { ...headers, ...(payload ? { 'Content-Type': 'application/merge-patch+json' } : {}) },
        },
        res => {
          let text = '';
          res.on('data', c => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined, at: Date.now() }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  beforeAll(async () => {
    // the RV moves (leases) and watches get bookmarks, as in a real cluster
    emulator = await KubeEmulator.start({ seed: true, operatorStepMs: 100, heartbeatMs: 500, bookmarkIntervalMs: 500, crds: upstreamCrds() });
    emulator.operators.settle();
    dir = await mkdtemp(path.join(tmpdir(), 'dbaas-sigterm-'));
    const files = await apiserverFiles(emulator, dir);
    const env = { DBAAS_APISERVER_SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS), DBAAS_APISERVER_SHUTDOWN_GRACE_MS: String(GRACE_MS) };
    a = await spawnApiserver({ ...files, env });
    agent = new https.Agent({
      keepAlive: true,
      maxSockets: Infinity,
      ca: emulator.certs.clusterCa.certPem,
      cert: emulator.certs.frontProxyClient.certPem,
      key: emulator.certs.frontProxyClient.keyPem,
      servername: 'api.dbaas-system.svc',
    });
    await emulator.registerApiService({ group: 'dbaas.platform.dev', version: 'v1alpha1', port: a.port, caPem: emulator.certs.clusterCa.certPem });
    b = await spawnApiserver({ ...files, env });
  }, 120_000);

  afterAll(async () => {
    agent?.destroy();
    await a?.stop(2000);
    await b?.stop(2000);
    emulator?.setFault('none');
    await emulator?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('finishes requests in flight, ends every watch cleanly, exits within the grace period; watchers resume on the other replica from their RV', async () => {
    const list = (await request(a.port, 'GET', INSTANCES)).json;
    const watchers = Array.from({ length: WATCHES }, () => new WatchClient({ resourceVersion: list.metadata.resourceVersion, items: list.items }));
    const onA: WatchTarget = { port: a.port, agent, headers, path: INSTANCES };
    const openStarted = Date.now();
    const opened = await Promise.all(watchers.map(w => w.open(onA)));
    const openMs = Date.now() - openStarted;
    expect(opened.filter(s => s !== 200)).toEqual([]);

    // B synced before A goes, and A has seen the cluster past B's first RV (its informers' bookmarks
    // carry the leases' RV every 500 ms): A's final bookmark then gives every watcher an RV that
    // B's history holds
    await eventually(async () => (await probe(b.port)) === 200);
    const bRv = BigInt((await request(b.port, 'GET', `${INSTANCES}?limit=1`)).json.metadata.resourceVersion);
    await eventually(async () => BigInt((await request(a.port, 'GET', `${INSTANCES}?limit=1`)).json.metadata.resourceVersion) >= bRv, 20_000);

    // writes that kube-apiserver answers slowly: in flight when SIGTERM arrives
    emulator.setFault('slow', { scope: 'storage', delayMs: 2000 });
    const names = list.items.slice(0, IN_FLIGHT).map((i: any) => [i.metadata.namespace, i.metadata.name]);
    const inFlight = names.map(([ns, name]: string[], n: number) =>
      request(a.port, 'PATCH', `/apis/dbaas.platform.dev/v1alpha1/namespaces/${ns}/databaseinstances/${name}`, { metadata: { labels: { 'in-flight': String(n) } } }),
    );
    // every write has reached kube-apiserver, which holds it for 2 s
    const held = () => emulator.delayedRequests().filter(r => r.method === 'PATCH').length;
    await eventually(() => held() >= IN_FLIGHT, 20_000, () => `${held()} of ${IN_FLIGHT} writes held`);
    const sigterm = Date.now();
    a.child.kill('SIGTERM');

    // still served during the shutdown delay, while /readyz already says no
    await eventually(async () => (await probe(a.port)) === 500, SHUTDOWN_DELAY_MS);
    expect((await request(a.port, 'GET', INSTANCES)).status).toBe(200);

    const answers = await Promise.all(inFlight);
    emulator.setFault('none');
    expect(answers.map(r => r.status)).toEqual(names.map(() => 200));
    const exit = await a.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - sigterm).toBeLessThan(GRACE_MS);
    expect(a.logs()).toMatch(/"message":"Shut down"/);

    await Promise.all(watchers.map(w => w.ended()));
    const ends = watchers.map(w => w.ends[0]);
    expect(ends.filter(e => e.how !== 'clean')).toEqual([]);
    expect(ends.filter(e => e.partial !== '')).toEqual([]); // no object cut in half
    // after the delay, not before: clients could still use A while endpoints were updated
    expect(Math.min(...ends.map(e => e.at)) - sigterm).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS - 100);

    // every watcher resumes from the RV it holds on the other replica: no 410, no re-list
    const onB: WatchTarget = { port: b.port, agent, headers, path: INSTANCES };
    // one request first, so the 1,000 connections resume its TLS session: this process plays all
    // the clients on the same two cores, where 1,000 full handshakes would be most of the test
    expect((await request(b.port, 'GET', '/version')).status).toBe(200);
    const resumeStarted = Date.now();
    const resumed = await Promise.all(watchers.map(w => w.open(onB)));
    const resumeMs = Date.now() - resumeStarted;
    expect(resumed.filter(s => s !== 200)).toEqual([]);
    emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'degraded', 'one node down');
    const degraded = (w: WatchClient) =>
      w.records.some(r => r.kind === 'event' && r.object.key === 'team-a/orders-db' && r.object.content.includes('"phase":"Degraded"'));
    await eventually(
      () => watchers.every(degraded),
      30_000,
      () => `${watchers.filter(w => !degraded(w)).length} watchers without the change; one of them got ${describeSince(watchers.find(w => !degraded(w)))}`,
    );
    for (const w of watchers) w.close();

    const errors = watchers.flatMap(w => w.records.filter(r => r.kind === 'error'));
    expect(errors).toEqual([]);
    const violations = watchers.flatMap(w => checkEventStream(w.records).violations);
    expect(violations.slice(0, 5)).toEqual([]);
    // what B sent each watcher: the changes since its RV, not the whole list again
    const addedOnB = watchers.map(w => {
      const since = w.records.findIndex((r, i) => r.kind === 'watch' && i > 1);
      return w.records.slice(since).filter(r => r.kind === 'event' && r.type === 'ADDED').length;
    });
    expect(Math.max(...addedOnB)).toBe(0);
    // eslint-disable-next-line no-console
    console.log(
      `SIGTERM: ${WATCHES} watches opened in ${openMs} ms; ${IN_FLIGHT} writes in flight answered 200 ${Math.min(...answers.map(r => r.at - sigterm))}–${Math.max(...answers.map(r => r.at - sigterm))} ms after it; ` +
        `watches ended cleanly ${Math.min(...ends.map(e => e.at)) - sigterm}–${Math.max(...ends.map(e => e.at)) - sigterm} ms after it; exit 0 after ${exit.at - sigterm} ms (grace ${GRACE_MS} ms); ` +
        `all resumed on the other replica in ${resumeMs} ms, 0 re-lists`,
    );
  }, 120_000);
});
