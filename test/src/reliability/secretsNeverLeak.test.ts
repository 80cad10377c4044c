import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bindClusterRole, kubectlBinaries, runKubectl } from '../support';
import { cacheReached } from '../support/cacheCaughtUp';
import { GROUP_VERSION_PATH } from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { CALLER_HEADERS, startHostileHarness, type Caller, type HostileHarness } from './hostileHarness';
import { credentialsIn, eventsText, leakIn, type KnownSecret } from './secretsScan';
import { eventually } from './support/eventually';

const NAMESPACES = ['team-a', 'team-b', 'team-c'];
const CREATED = [
  { name: 'leak-maria', spec: { engine: 'mariadb', topology: 'standalone' } },
  { name: 'leak-mysql', spec: { engine: 'mysql' } },
  { name: 'leak-redis', spec: { engine: 'redis', topology: 'replication', replicas: 2 } },
  { name: 'leak-rabbit', spec: { engine: 'rabbitmq' } },
  { name: 'leak-search', spec: { engine: 'elasticsearch', replicas: 1 } },
];
const TRANSFORMS = [
  'application/json',
  'application/yaml',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
];

describe('secrets never appear outside the connection subresource', () => {
  let h: HostileHarness;
  let secrets: KnownSecret[];
  const logs: string[] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  /** Every answer the scan has to look at, with what produced it. */
  const seen: Array<{ what: string; text: string }> = [];

  const send = async (caller: Caller, probe: ProbeRequest) => {
    const answer = await h.send(caller, probe);
    seen.push({ what: `${caller} ${probe.method} ${probe.path} → ${answer.status}`, text: `${JSON.stringify(answer.headers)}\n${answer.body}` });
    return answer;
  };

  beforeAll(async () => {
    h = await startHostileHarness({ apiserverLogger: { info: record('info'), warn: record('warn'), error: record('error') } });
    // alice edits team-a (the chart's dbaas-edit), which leaves credentials out: reading them is
    // the chart's dbaas-connection-reader, bound here as an admin would
    bindClusterRole(h.system.emulator, { name: 'alice-connection-reader', namespace: 'team-a', clusterRole: 'dbaas-connection-reader', user: 'alice' });
    // creates by the API: it generates the MySQL and Redis passwords itself, the operators the others
    for (const c of CREATED) {
      const answer = await send('alice', {
        method: 'POST',
        path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { name: c.name }, spec: c.spec }),
      });
      if (answer.status !== 201) throw new Error(`create ${c.name}: ${answer.status} ${answer.body}`);
    }
    h.system.emulator.operators.resume();
    h.system.emulator.operators.settle();
    h.system.emulator.operators.pause();
    secrets = credentialsIn(h.system.emulator, NAMESPACES);
    // the cases read instances and write them back: the settled state must be in the cache
    await cacheReached(h.system, h.system.emulator.store.currentRV(), 10_000);
  });

  /** Each case scans what it saw itself, so the scan holds whichever cases ran before it. */
  const noLeakSince = (mark: number) => {
    const leaks = seen.slice(mark).map(s => ({ what: s.what, leak: leakIn(s.text, secrets) })).filter(s => s.leak);
    expect(leaks).toEqual([]);
  };

  afterAll(async () => {
    await h?.stop();
  });

  it('finds a credential of every engine, and the connection subresource returns them to a dbaas-connection-reader (so the scan can see a leak)', async () => {
    const where = secrets.map(s => s.where).join(' ');
    for (const c of CREATED) expect(where).toContain(`team-a/${c.name}`);
    for (const c of CREATED) {
      const answer = await h.send('alice', { method: 'GET', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/${c.name}/connection` });
      expect(answer.status).toBe(200);
      expect(leakIn(answer.body, secrets)).toContain(`team-a/${c.name}`);
    }
  });

  it('no read of the instances shows them: get, list, watch, YAML, Table with objects, metadata, status', async () => {
    const mark = seen.length;
    const instances = h.system.apiserver.store.list();
    expect(instances.length).toBeGreaterThan(CREATED.length);
    for (const accept of TRANSFORMS) {
      const list = accept.includes('PartialObjectMetadata;') ? 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' : accept;
      await send('admin', { method: 'GET', path: `${GROUP_VERSION_PATH}/databaseinstances?includeObject=Object`, headers: { accept: list } });
      for (const i of instances) {
        const path = `${GROUP_VERSION_PATH}/namespaces/${i.metadata.namespace}/databaseinstances/${i.metadata.name}`;
        const single = accept.includes('PartialObjectMetadataList') ? 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' : accept;
        await send('admin', { method: 'GET', path: `${path}?includeObject=Object`, headers: { accept: single } });
        await send('admin', { method: 'GET', path: `${path}/status`, headers: { accept: single } });
      }
    }
    // a watch from the start replays every instance as ADDED
    const watch = await h.system.apiserver.store.list();
    expect(watch.length).toBe(instances.length);
    const stream = await collectWatch(h, `${GROUP_VERSION_PATH}/databaseinstances?watch=1&resourceVersion=0`, 500, text => text.includes('"type":"ADDED"'));
    seen.push({ what: 'watch of every instance', text: stream });
    expect(stream).toContain('"type":"ADDED"');
    expect(seen.every(s => !/→ 5\d\d/.test(s.what))).toBe(true);
    expect(seen.length - mark).toBeGreaterThan(100);
    noLeakSince(mark);
  });

  it('no refusal shows them: Status bodies of 4xx answers around the credentials', async () => {
    const mark = seen.length;
    const conn = (ns: string, name: string) => `${GROUP_VERSION_PATH}/namespaces/${ns}/databaseinstances/${name}/connection`;
    const refusals: Array<[Caller, ProbeRequest]> = [
      ['carol', { method: 'GET', path: conn('team-a', 'leak-maria') }],
      ['alice', { method: 'GET', path: conn('team-b', 'search') }],
      ['anonymous', { method: 'GET', path: conn('team-a', 'leak-mysql') }],
      ['admin', { method: 'GET', path: conn('team-a', 'missing') }],
      ['admin', { method: 'PUT', path: conn('team-a', 'leak-redis'), headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['admin', { method: 'GET', path: conn('team-a', 'leak-redis'), headers: { accept: 'application/vnd.kubernetes.protobuf' } }],
      ['admin', { method: 'GET', path: conn('nowhere', 'leak-redis') }],
      ['alice', { method: 'PATCH', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/leak-mysql?fieldValidation=Strict`, headers: { 'content-type': 'application/merge-patch+json' }, body: '{"spec":{"password":"x","replicas":-1}}' }],
      ['alice', { method: 'PATCH', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/leak-redis`, headers: { 'content-type': 'application/merge-patch+json' }, body: '{"spec":{"engine":"mysql","version":"1.0"}}' }],
      ['alice', { method: 'POST', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'leak-rabbit' }, spec: { engine: 'rabbitmq' } }) }],
      ['alice', { method: 'DELETE', path: `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/leak-search`, headers: { 'content-type': 'application/json' }, body: '{"preconditions":{"uid":"nope"}}' }],
    ];
    for (const [caller, probe] of refusals) {
      const answer = await send(caller, probe);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    noLeakSince(mark);
  });

  it('no write answer shows them: patch, update and delete return the instance without credentials', async () => {
    const mark = seen.length;
    const path = (name: string) => `${GROUP_VERSION_PATH}/namespaces/team-a/databaseinstances/${name}`;
    const maria = await send('alice', { method: 'GET', path: path('leak-maria') });
    for (const probe of [
      { method: 'PATCH', path: path('leak-redis'), headers: { 'content-type': 'application/merge-patch+json' }, body: '{"spec":{"storage":{"size":"2Gi"}}}' },
      { method: 'PATCH', path: `${path('leak-mysql')}?dryRun=All`, headers: { 'content-type': 'application/json-patch+json' }, body: '[{"op":"replace","path":"/spec/replicas","value":5}]' },
      { method: 'PUT', path: `${path('leak-maria')}?dryRun=All`, headers: { 'content-type': 'application/json' }, body: maria.body },
      { method: 'DELETE', path: `${path('leak-rabbit')}?dryRun=All` },
    ] as ProbeRequest[]) {
      const answer = await send('alice', probe);
      expect(answer.status).toBe(200);
    }
    noLeakSince(mark);
  });

  it('kubectl shows none of them: get -o yaml/json/wide, describe', async () => {
    const mark = seen.length;
    const [kubectl] = kubectlBinaries([]);
    const home = `${h.system.dir}/home-secrets`;
    for (const args of [
      ['get', 'dbi', '-A', '-o', 'yaml'],
      ['get', 'dbi', '-A', '-o', 'json'],
      ['get', 'dbi', '-A', '-o', 'wide'],
      ['get', 'databaseengines', '-o', 'yaml'],
      ['describe', 'dbi', '-n', 'team-a'],
    ]) {
      const r = await runKubectl(kubectl.file, h.system.kubeconfig, home, args);
      expect(r.code).toBe(0);
      seen.push({ what: `kubectl ${args.join(' ')}`, text: r.stdout + r.stderr });
    }
    expect(seen.filter(s => s.what.startsWith('kubectl get dbi -A -o yaml'))[0].text).toContain('leak-maria');
    noLeakSince(mark);
  });

  it('the scan: no answer so far, no log line of the apiserver and no Kubernetes Event holds a credential', () => {
    noLeakSince(0);
    // the log has something to look at: the creates were logged at least
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter(l => leakIn(l, secrets))).toEqual([]);
    const events = eventsText(h.system.emulator);
    expect(leakIn(events.text, secrets)).toBeUndefined();
  });
});

/**
 * Reads a watch for `ms`, then on until what arrived satisfies `until` (at most 20 s more), and
 * returns what arrived. The events come as I/O: on a loaded event loop a timer of `ms` alone can
 * run out before the first of them has been read.
 */
async function collectWatch(h: HostileHarness, path: string, ms: number, until: (text: string) => boolean): Promise<string> {
  const certs = h.system.emulator.certs;
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: h.system.apiserver.port,
        path,
        ca: certs.clusterCa.certPem,
        servername: 'api.dbaas-system.svc',
        cert: certs.frontProxyClient.certPem,
        key: certs.frontProxyClient.keyPem,
        headers: CALLER_HEADERS.admin,
      },
      res => {
        let text = '';
        res.on('data', d => (text += d));
        res.on('error', () => undefined);
        setTimeout(() => {
          // timing out here is the caller's assertion on what arrived, not an error of its own
          void eventually(() => until(text), 20_000)
            .catch(() => undefined)
            .then(() => {
              req.destroy();
              resolve(text);
            });
        }, ms);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
