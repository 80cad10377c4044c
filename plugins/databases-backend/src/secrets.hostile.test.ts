import http from 'node:http';
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ConfigReader } from '@backstage/config';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { bindClusterRole } from '@internal/e2e';
import { DatabaseInstanceEntityProvider } from './catalog/DatabaseInstanceEntityProvider';
import { readDatabasesConfig } from './config/readDatabasesConfig';
import { ClusterSet } from './watch/ClusterSet';
import type { BackendRequest, Who } from './__testUtils__/hostileBackendProbe';
import type { HostileBackend } from './__testUtils__/startHostileBackend';
import { emulatorCluster } from './__testUtils__/emulatorCluster';
import { eventually } from './__testUtils__/eventually';
import { useHostileBackend } from './__testUtils__/useHostileBackend';

jest.setTimeout(120_000);

const SECRETS = { group: '', version: 'v1', plural: 'secrets' };
const EVENTS = { group: '', version: 'v1', plural: 'events' };
/** Data keys that hold a credential in the operators' Secrets (MariaDB, MySQL, Redis, RabbitMQ, ECK). */
const CREDENTIAL_KEY = /password|^elastic$/i;
const BASE = '/api/databases/clusters/local/namespaces';

describe('secrets never leave the backend except through the connection route', () => {
  const { backend: b, client } = useHostileBackend();
  let secrets: Array<{ where: string; forms: string[] }>;
  const seen: Array<{ what: string; text: string }> = [];

  const leakIn = (text: string) => secrets.find(s => s.forms.some(f => text.includes(f)))?.where;
  const send = async (r: BackendRequest) => {
    const a = await client.send(r);
    seen.push({ what: `${r.caller} ${r.method} ${r.path} → ${a.status}`, text: `${JSON.stringify(a.headers)}\n${a.body}` });
    return a;
  };

  beforeAll(async () => {
    // alice's team edits team-a (the chart's dbaas-edit, without credentials): her connection
    // reads are the chart's dbaas-connection-reader, bound to her as an admin would
    bindClusterRole(b.system.emulator, { name: 'alice-connection-reader', namespace: 'team-a', clusterRole: 'dbaas-connection-reader', user: 'user:default/alice' });
    // creates through the portal: the apiserver generates the MySQL and Redis passwords, the operators the rest
    for (const [name, spec] of [
      ['portal-mysql', { engine: 'mysql' }],
      ['portal-redis', { engine: 'redis', topology: 'standalone' }],
      ['portal-maria', { engine: 'mariadb', topology: 'standalone' }],
    ] as const) {
      const a = await send({
        method: 'POST',
        path: `${BASE}/team-a/instances`,
        caller: 'alice',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, owner: 'group:default/team-a', entityRef: 'component:default/orders', spec }),
      });
      if (a.status !== 201) throw new Error(`create ${name}: ${a.status} ${a.body}`);
    }
    b.system.emulator.operators.settle();
    secrets = [];
    for (const ns of ['team-a', 'team-b', 'team-c']) {
      for (const secret of b.system.emulator.store.list(SECRETS, ns) as any[]) {
        for (const [key, encoded] of Object.entries<string>(secret.data ?? {})) {
          const value = Buffer.from(encoded, 'base64').toString('utf8');
          if (CREDENTIAL_KEY.test(key) && value.length >= 8) secrets.push({ where: `${ns}/${secret.metadata.name}[${key}]`, forms: [value, encoded] });
        }
      }
    }
  });

  it('the connection route returns them to the owner bound to dbaas-connection-reader (so the scan can see a leak), and to no one else', async () => {
    const own = await client.send({ method: 'GET', path: `${BASE}/team-a/instances/portal-mysql/connection`, caller: 'alice' });
    expect(own.status).toBe(200);
    expect(leakIn(own.body)).toContain('team-a/portal-mysql');
    for (const caller of ['bob', 'carol', 'invalid', 'none'] as Who[]) {
      const other = await send({ method: 'GET', path: `${BASE}/team-a/instances/portal-mysql/connection`, caller });
      expect(other.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('no other answer of the backend holds one: lists, instances, engines, history, entity routes, refusals, the event stream', async () => {
    const names = b.system.apiserver.store.list().map(i => [i.metadata.namespace, i.metadata.name]);
    for (const caller of ['alice', 'carol'] as Who[]) {
      await send({ method: 'GET', path: '/api/databases/instances?limit=500', caller });
      await send({ method: 'GET', path: '/api/databases/entity-instances?entityRef=component:default/orders', caller });
      await send({ method: 'GET', path: '/api/databases/clusters/local/engines', caller });
      for (const [ns, name] of names) {
        await send({ method: 'GET', path: `${BASE}/${ns}/instances/${name}`, caller });
        await send({ method: 'GET', path: `${BASE}/${ns}/instances/${name}/history`, caller });
      }
    }
    // refusals around the credentials
    await send({ method: 'PATCH', path: `${BASE}/team-a/instances/portal-mysql`, caller: 'alice', headers: { 'content-type': 'application/json' }, body: '{"replicas":-3}' });
    await send({ method: 'PATCH', path: `${BASE}/team-a/instances/portal-redis`, caller: 'bob', headers: { 'content-type': 'application/json' }, body: '{"replicas":3}' });
    await send({ method: 'DELETE', path: `${BASE}/team-a/instances/portal-maria`, caller: 'carol' });
    await send({ method: 'GET', path: `${BASE}/team-a/instances/missing/connection`, caller: 'alice' });
    // the event stream, while an instance changes
    const stream = collectEvents(b, 1500, text => text.includes('data:'));
    await send({ method: 'PATCH', path: `${BASE}/team-a/instances/portal-redis`, caller: 'alice', headers: { 'content-type': 'application/json' }, body: '{"storage":{"size":"2Gi"}}' });
    b.system.emulator.operators.settle();
    const events = await stream;
    expect(events).toContain('data:');
    seen.push({ what: 'the event stream of alice', text: events });
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.map(s => ({ what: s.what, leak: leakIn(s.text) })).filter(s => s.leak)).toEqual([]);
  });

  it('no catalog Resource entity the provider emits holds one', async () => {
    const logger = mockServices.logger.mock();
    const config = new ConfigReader({ databases: { clusters: [emulatorCluster(b.system)] } });
    const clusters = new ClusterSet(readDatabasesConfig(config), logger);
    const provider = new DatabaseInstanceEntityProvider(clusters, logger, 0);
    let entities: Entity[] = [];
    await provider.connect({
      applyMutation: async (m: any) => {
        entities = m.entities.map((e: any) => e.entity);
      },
      refresh: async () => undefined,
    });
    try {
      const want = b.system.apiserver.store.list().length;
      const deadline = Date.now() + 20_000;
      while (clusters.cachedInstances().length < want && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
      await provider.refresh();
      expect(entities.length).toBe(want);
      expect(leakIn(JSON.stringify(entities))).toBeUndefined();
    } finally {
      provider.close();
      await clusters.stop();
    }
  });

  it('no log line of the backend and no Kubernetes Event holds one', () => {
    // creates, the connection read and refusals were logged (audit events included)
    expect(b.logs.lines.length).toBeGreaterThan(0);
    expect(b.logs.lines.filter(l => leakIn(l))).toEqual([]);
    expect(leakIn(JSON.stringify(b.system.emulator.store.list(EVENTS)))).toBeUndefined();
  });
});

/**
 * What alice's server-sent event stream delivers within `ms`, and then until it satisfies `until`
 * (at most 20 s more). The frames come as I/O: on a loaded event loop a timer of `ms` alone can
 * run out before the first of them has been read.
 */
function collectEvents(b: Pick<HostileBackend, 'port'>, ms: number, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: b.port, path: '/api/databases/events', headers: { authorization: mockCredentials.user.header('user:default/alice') } }, res => {
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
    });
    req.on('error', reject);
    req.end();
  });
}
