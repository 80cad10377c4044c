import http2 from 'node:http2';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { kubectlBinaries, runKubectl, spawnKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';
import { cacheReached } from '../support/cacheCaughtUp';

const INSTANCES = '/apis/dbaas.platform.dev/v1alpha1/databaseinstances';
const MARIADB = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs' };

/**
 * HTTP/2, as kube-apiserver's aggregator and client-go speak it when the server offers `h2`:
 * kubectl pointed at the apiserver itself (a token user, delegated to the cluster's TokenReview),
 * and a Node HTTP/2 client carrying many watches on one connection, as the aggregator does.
 */
describe('the apiserver over HTTP/2', () => {
  let system: System;
  let kubeconfig: string;
  /** Requests the apiserver received over HTTP/2 (path of each stream). */
  const h2Paths: string[] = [];

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    system.apiserver.server.server.on('stream', (_stream, headers) => h2Paths.push(String(headers[':path'])));
    kubeconfig = path.join(system.dir, 'direct.kubeconfig');
    const ca = Buffer.from(system.emulator.certs.clusterCa.certPem).toString('base64');
    await writeFile(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{ name: direct, cluster: { server: "https://127.0.0.1:${system.apiserver.port}", certificate-authority-data: "${ca}" } }]`,
        'users: [{ name: carol, user: { token: carol-token } }]',
        'contexts: [{ name: direct, context: { cluster: direct, user: carol } }]',
        'current-context: direct',
        '',
      ].join('\n'),
    );
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  /** Resolves when a stream whose path matches arrived over HTTP/2 (at index `from` or later). */
  function streamReceived(from: number, matches: (path: string) => boolean, timeoutMs = 60_000): Promise<void> {
    if (h2Paths.slice(from).some(matches)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const server = system.apiserver.server.server;
      let timer: NodeJS.Timeout | undefined = undefined;
      const onStream = (_stream: unknown, headers: http2.IncomingHttpHeaders) => {
        if (!matches(String(headers[':path']))) return;
        clearTimeout(timer);
        server.off('stream', onStream);
        resolve();
      };
      // the bound: kubectl's start-up and one list, seconds even on a loaded machine
      timer = setTimeout(() => {
        server.off('stream', onStream);
        reject(new Error(`no matching HTTP/2 request within ${timeoutMs} ms; seen: ${h2Paths.slice(from).join(', ')}`));
      }, timeoutMs);
      server.on('stream', onStream);
    });
  }

  function session(asProxy = false): http2.ClientHttp2Session {
    const { clusterCa, frontProxyClient } = system.emulator.certs;
    const s = http2.connect(`https://127.0.0.1:${system.apiserver.port}`, {
      ca: clusterCa.certPem,
      ...(asProxy ? { cert: frontProxyClient.certPem, key: frontProxyClient.keyPem } : {}),
    });
    s.on('error', () => {});
    return s;
  }

  function request(s: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: string) {
    return new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      // carol's token unless the caller says otherwise ('' sends no Authorization at all)
      const all: http2.OutgoingHttpHeaders = { authorization: 'Bearer carol-token', ...headers };
      if (all.authorization === '') delete all.authorization;
      const stream = s.request(all);
      const chunks: Buffer[] = [];
      let head: http2.IncomingHttpHeaders = {};
      stream.on('response', h => (head = h));
      stream.on('data', d => chunks.push(d));
      stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) }));
      stream.on('error', reject);
      stream.end(body);
    });
  }

  it.each(kubectlBinaries())('$name negotiates HTTP/2 with the apiserver and lists, gets and watches through it', async ({ file, name }) => {
    const home = path.join(system.dir, `home-h2-${name}`);
    const before = h2Paths.length;
    const list = await runKubectl(file, kubeconfig, home, ['get', 'databaseinstances', '-A', '-o', 'name']);
    expect(list.stderr).toBe('');
    expect(list.stdout).toContain('databaseinstance.dbaas.platform.dev/orders-db');
    const seen = h2Paths.slice(before);
    expect(seen.some(p => p.startsWith(INSTANCES))).toBe(true);

    // a client's mistake is a Status kubectl shows, over HTTP/2 as over HTTP/1.1
    const bad = await runKubectl(file, kubeconfig, home, ['get', 'databaseinstances', '-A', '--field-selector', 'spec.nope=x']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"spec.nope" is not a known field selector');

    const watch = spawnKubectl(file, kubeconfig, home, ['get', 'databaseinstances', '-n', 'team-a', '--watch-only', '-o', 'name']);
    try {
      // kubectl lists, then watches from the list's resourceVersion: once its watch request is
      // in, a change made now is delivered whether or not the watch has subscribed yet
      await streamReceived(before, p => p.startsWith(`/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances?`) && p.includes('watch=true') && p.includes('resourceVersion='));
      const db = system.emulator.store.get(MARIADB, 'team-a', 'orders-db')!;
      system.emulator.store.update(MARIADB, { ...db, metadata: { ...db.metadata, labels: { ...db.metadata.labels, touched: name } } });
      await watch.waitForLine(l => l.includes('orders-db'), 15_000);
      expect(h2Paths.slice(before).some(p => p.includes('watch=true'))).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('carries 300 watches on one connection and delivers a change to every one', async () => {
    const s = session();
    try {
      const rv = JSON.parse((await request(s, { ':path': `${INSTANCES}?limit=1` })).body.toString()).metadata.resourceVersion;
      const got = new Set<number>();
      let allSeen: () => void = () => {};
      const done = new Promise<void>(r => (allSeen = r));
      const streams = Array.from({ length: 300 }, (_, i) => {
        const st = s.request({ ':path': `${INSTANCES}?watch=true&resourceVersion=${rv}`, authorization: 'Bearer carol-token' });
        let text = '';
        st.setEncoding('utf8');
        st.on('data', (d: string) => {
          text += d;
          if (text.includes('"h2-touch"') && !got.has(i)) {
            got.add(i);
            if (got.size === 300) allSeen();
          }
        });
        st.on('error', () => {});
        return st;
      });
      await Promise.all(streams.map(st => new Promise(r => st.once('response', r))));
      const db = system.emulator.store.get(MARIADB, 'team-a', 'orders-db')!;
      system.emulator.store.update(MARIADB, { ...db, metadata: { ...db.metadata, labels: { ...db.metadata.labels, mark: 'h2-touch' } } });
      // bound: 300 events on loopback; the timer is cleared so that it does not outlive the test
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise(r => (timer = setTimeout(r, 15_000)))]);
      clearTimeout(timer);
      expect(got.size).toBe(300);
      streams.forEach(st => st.close());
    } finally {
      s.close();
    }
  }, 60_000);

  it('takes the identity from the front proxy\'s headers over HTTP/2, every group line, and never without its certificate', async () => {
    const proxy = session(true);
    const stranger = session(false);
    try {
      const list = (s: http2.ClientHttp2Session, who: http2.OutgoingHttpHeaders) =>
        request(s, { ':path': `${INSTANCES}?limit=1`, authorization: '', ...who });
      // carol reads through her group alone, sent as its own header line after another
      const carol = await list(proxy, { 'x-remote-user': 'carol', 'x-remote-group': ['system:authenticated', 'platform-viewers'] });
      expect(carol.status).toBe(200);
      const onlyFirstGroup = await list(proxy, { 'x-remote-user': 'carol', 'x-remote-group': ['system:authenticated'] });
      expect(onlyFirstGroup.status).toBe(403);
      expect(JSON.parse(onlyFirstGroup.body.toString()).message).toContain('"carol"');
      // the same headers from a client without the proxy's certificate are not an identity
      const forged = await list(stranger, { 'x-remote-user': 'admin', 'x-remote-group': 'system:masters' });
      expect([401, 403]).toContain(forged.status);
      expect(JSON.parse(forged.body.toString()).message ?? '').not.toContain('"admin"');
    } finally {
      proxy.close();
      stranger.close();
    }
  });

  it('answers a bad request with a Status, and compresses a large list, over HTTP/2', async () => {
    // enough instances for a list above the 128 KiB compression threshold
    const REDIS = { group: 'redis.redis.opstreelabs.in', version: 'v1beta2', plural: 'redis' };
    for (let i = 0; i < 250; i++) {
      system.emulator.store.create(REDIS, {
        apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
        kind: 'Redis',
        metadata: { name: `h2-bulk-${i}`, namespace: 'team-c' },
        spec: { kubernetesConfig: { image: 'quay.io/opstree/redis:v7.0.15' } },
      });
    }
    // the bound: 250 watch events on loopback (each create is an event of the Redis informer)
    await cacheReached(system, system.emulator.store.currentRV(), 30_000);
    const s = session();
    try {
      const bad = await request(s, { ':path': `${INSTANCES}?labelSelector=${encodeURIComponent('a in (b')}` });
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.body.toString())).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest' });

      const invalid = await request(
        s,
        { ':path': '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances', ':method': 'POST', 'content-type': 'application/json' },
        JSON.stringify({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name: 'Bad_Name' }, spec: {} }),
      );
      expect(invalid.status).toBeGreaterThanOrEqual(400);
      expect(invalid.status).toBeLessThan(500);
      expect(JSON.parse(invalid.body.toString())).toMatchObject({ kind: 'Status' });

      const plain = await request(s, { ':path': INSTANCES });
      const zipped = await request(s, { ':path': INSTANCES, 'accept-encoding': 'gzip' });
      expect(plain.status).toBe(200);
      const items = JSON.parse(plain.body.toString()).items.map((i: { metadata: { name: string } }) => i.metadata.name);
      expect(items.length).toBeGreaterThan(250);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(gunzipSync(zipped.body).toString()).items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(items);
    } finally {
      s.close();
    }
  });
});
