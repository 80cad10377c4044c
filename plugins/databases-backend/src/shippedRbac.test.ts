import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createBackendModule } from '@backstage/backend-plugin-api';
import { mockCredentials, startTestBackend } from '@backstage/backend-test-utils';
import { catalogEntityReadPermission } from '@backstage/plugin-catalog-common/alpha';
import { AuthorizeResult, isPermission, type PolicyDecision } from '@backstage/plugin-permission-common';
import type { PolicyQuery, PolicyQueryUser } from '@backstage/plugin-permission-node';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { bindClusterRole, startSystem, type System } from '@internal/e2e';
import { catalogModuleDatabases } from './catalog/catalogModuleDatabases';
import { databasesCatalogAccessServiceRef } from './catalog/databasesCatalogAccessServiceRef';
import { ANNOTATION_SCOPE } from './catalog/instanceToEntity';
import { eventually } from './__testUtils__/eventually';
import { openEvents } from './__testUtils__/openEvents';
import { startPermissionedBackend } from './__testUtils__/startPermissionedBackend';

jest.setTimeout(120_000);

/**
 * The real backend (databases, catalog and permission plugins) against the emulator with only the
 * RBAC a real install has: Kubernetes' bootstrap roles, the apiserver chart's roles, the
 * backend's from deploy/backstage (what the backend does as itself), and bindings made as
 * docs/install.md says. Erin is bound to nothing but `dbaas-view` in team-b, and the portal's own
 * policy allows everything but the catalog read (that is the cluster's to decide), so whatever
 * she sees or is refused is Kubernetes RBAC's doing through the shipped roles.
 */
const ERIN = 'user:default/erin';
const erin = mockCredentials.user.header(ERIN);
const carol = mockCredentials.user.header('user:default/carol');
const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles' };
/** deploy/backstage's ClusterRole as the emulator installs it (release dbaas-backstage). */
const BACKEND_ROLE = 'dbaas-backstage';

/** The one line an app's policy adds (as packages/backend does), and nothing else: allow the rest. */
const policyModule = createBackendModule({
  pluginId: 'permission',
  moduleId: 'shipped-rbac-policy',
  register(reg) {
    reg.registerInit({
      deps: { policy: policyExtensionPoint, catalogAccess: databasesCatalogAccessServiceRef },
      async init({ policy, catalogAccess }) {
        policy.setPolicy({
          async handle(req: PolicyQuery, user?: PolicyQueryUser): Promise<PolicyDecision> {
            if (isPermission(req.permission, catalogEntityReadPermission)) return catalogAccess.decision(req.permission, user);
            return { result: AuthorizeResult.ALLOW };
          },
        });
      },
    });
  },
});

let system: System;
let backend: Awaited<ReturnType<typeof startTestBackend>>;

/** `namespace/name` of the apiserver's own instances in `namespace` (all when undefined). */
const served = (namespace?: string) =>
  system.apiserver.store
    .list(namespace)
    .map(i => `${i.metadata.namespace}/${i.metadata.name}`)
    .sort();
const listed = (body: any) => body.items.map((i: any) => `${i.instance.metadata.namespace}/${i.instance.metadata.name}`).sort();
const get = (path: string, who: string) => request(backend.server).get(path).set('Authorization', who);
const clusterHealth = async () => (await get('/api/databases/clusters', erin)).body.items[0];
const catalogDatabases = async (who: string) => {
  const res = await get('/api/catalog/entities/by-query?filter=kind=resource,spec.type=database&limit=500', who);
  expect(res.status).toBe(200);
  return res.body.items as any[];
};

beforeAll(async () => {
  system = await startSystem({ seed: true });
  system.emulator.operators.settle();
  // as a platform admin would: `kubectl create rolebinding erin-databases --clusterrole=dbaas-view --user=user:default/erin -n team-b`
  bindClusterRole(system.emulator, { name: 'erin-databases', namespace: 'team-b', clusterRole: 'dbaas-view', user: ERIN });
  backend = await startPermissionedBackend(system, policyModule, [catalogModuleDatabases]);
  // every instance is an entity once the provider ran: carol (cluster-wide view) sees them all
  const expected = served().length;
  await eventually(async () => (await catalogDatabases(carol)).length === expected, 60_000, `the catalog shows carol all ${expected} databases`);
});

afterAll(async () => {
  await backend?.stop();
  await system?.stop();
});

describe('a user with only dbaas-view in one namespace, the backend with only deploy/backstage', () => {
  // The watch itself, not only the health: a refused watch leaves the cluster healthy for a moment
  // after each of its lists, and the relists still deliver changes, late.
  it("the backend's own list and watch run on deploy/backstage's rules: the apiserver serves its watch", async () => {
    await eventually(() => system.apiserver.app.control.activeWatches() > 0, 20_000, "the backend's watch is open at the apiserver");
    expect(await clusterHealth()).toEqual(expect.objectContaining({ name: 'local', healthy: true }));
  });

  it("GET /instances: team-b's instances, every one of them, and nothing of another namespace", async () => {
    expect(served('team-b').length).toBeGreaterThan(0);
    const res = await get('/api/databases/instances', erin);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(listed(res.body)).toEqual(served('team-b'));
    const other = await get('/api/databases/instances?namespace=team-a', erin);
    expect(other.body.items).toEqual([]);
  });

  it('the instance route: a team-b instance, without credentials; another namespace’s is refused', async () => {
    const [mine] = system.apiserver.store.list('team-b');
    const page = await get(`/api/databases/clusters/local/namespaces/team-b/instances/${mine.metadata.name}`, erin);
    expect(page.status).toBe(200);
    expect(page.body.instance.metadata).toMatchObject({ namespace: 'team-b', name: mine.metadata.name });
    // dbaas-view grants no patch, delete or credentials: no button is offered that the cluster would refuse
    expect(page.body.actions).toEqual({ update: false, delete: false, readConnection: false, backUp: false, deleteBackups: false, createSchedule: false, updateSchedules: false, deleteSchedules: false });
    const connection = await get(`/api/databases/clusters/local/namespaces/team-b/instances/${mine.metadata.name}/connection`, erin);
    expect(connection.status).toBe(403);
    const [theirs] = system.apiserver.store.list('team-a');
    const refused = await get(`/api/databases/clusters/local/namespaces/team-a/instances/${theirs.metadata.name}`, erin);
    expect(refused.status).toBe(403);
  });

  it("the engines (through the chart's dbaas-engine-reader: a RoleBinding cannot grant a cluster-scoped kind)", async () => {
    const res = await get('/api/databases/clusters/local/engines', erin);
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: any) => e.spec.engine).sort()).toEqual(
      system.apiserver.store.engines().map(e => e.spec.engine).sort(),
    );
  });

  it('may not create, change or delete (dbaas-view reads only)', async () => {
    const [mine] = system.apiserver.store.list('team-b');
    const base = '/api/databases/clusters/local/namespaces/team-b/instances';
    const created = await request(backend.server)
      .post(base)
      .set('Authorization', erin)
      .send({ name: 'erin-db', owner: ERIN, spec: { engine: 'redis' } });
    expect(created.status).toBe(403);
    const patched = await request(backend.server).patch(`${base}/${mine.metadata.name}`).set('Authorization', erin).send({ replicas: 2 });
    expect(patched.status).toBe(403);
    const deleted = await request(backend.server).delete(`${base}/${mine.metadata.name}`).set('Authorization', erin);
    expect(deleted.status).toBe(403);
    expect(served('team-b')).toContain(`team-b/${mine.metadata.name}`);
  });

  it("the catalog: team-b's databases, also by name; another namespace's are not found", async () => {
    const entities = await catalogDatabases(erin);
    expect([...new Set(entities.map(e => e.metadata.annotations[ANNOTATION_SCOPE]))]).toEqual(['local:team-b']);
    expect(entities.length).toBe(served('team-b').length);
    const all = await catalogDatabases(carol);
    const byName = (e: any) => `/api/catalog/entities/by-name/resource/default/${e.metadata.name}`;
    const mine = all.find(e => e.metadata.annotations[ANNOTATION_SCOPE] === 'local:team-b')!;
    const theirs = all.find(e => e.metadata.annotations[ANNOTATION_SCOPE] === 'local:team-a')!;
    expect((await get(byName(mine), erin)).status).toBe(200);
    expect((await get(byName(theirs), erin)).status).toBe(404);
  });

  it("the event stream (the backend's watch): team-b's change reaches her, team-a's does not", async () => {
    const stream = openEvents((backend.server.address() as AddressInfo).port, 'erin');
    try {
      await stream.ready;
      await eventually(() => stream.events.some(e => e.event === 'cluster' && e.data.cluster === 'local'), 20_000, 'the cluster event');
      // team-a's change first: were it let through, it would come before team-b's
      system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'degraded', 'one node down');
      system.emulator.operators.setHealth({ kind: 'Elasticsearch', namespace: 'team-b', name: 'search' }, 'degraded', 'yellow');
      const instances = () => stream.events.filter(e => e.event === 'instance').map(e => e.data.instance.metadata);
      await eventually(
        () => instances().some(m => m.namespace === 'team-b' && m.name === 'search'),
        20_000,
        "team-b's search reaches erin",
      );
      expect(instances().filter(m => m.namespace !== 'team-b')).toEqual([]);
    } finally {
      stream.close();
      system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' }, 'ready');
      system.emulator.operators.setHealth({ kind: 'Elasticsearch', namespace: 'team-b', name: 'search' }, 'ready');
    }
  });
});

/** Sets deploy/backstage's ClusterRole to `rules`, as `kubectl edit clusterrole` would. */
function setBackendRules(rules: Array<Record<string, unknown>>) {
  const role = system.emulator.store.get(CLUSTER_ROLES, undefined, BACKEND_ROLE)!;
  system.emulator.store.update(CLUSTER_ROLES, { ...role, rules });
}

// Runs after the tests above (same backend): the watch is cut by rolling the apiserver, as any
// upgrade does, so it asks again with the narrowed rules.
describe("the backend's own RBAC narrowed: what each rule of deploy/backstage is for", () => {
  let shipped: Array<Record<string, any>>;
  const without = (resource: string, verb: string) =>
    shipped
      .map(r => (r.resources.includes(resource) ? { ...r, verbs: r.verbs.filter((v: string) => v !== verb) } : r))
      .filter(r => r.verbs.length > 0);

  beforeAll(async () => {
    shipped = structuredClone(system.emulator.store.get(CLUSTER_ROLES, undefined, BACKEND_ROLE)!.rules as any[]);
    await eventually(async () => (await clusterHealth()).healthy === true, 20_000, 'the cluster is healthy');
  });

  afterAll(() => setBackendRules(shipped));

  it("without watch: the cluster is unhealthy naming the watch, and the list still answers through the namespaces' list", async () => {
    setBackendRules(without('databaseinstances', 'watch'));
    await system.restartApiserver();
    await eventually(
      async () => {
        const health = await clusterHealth();
        return !health.healthy && /cannot watch resource "databaseinstances"/.test(health.message);
      },
      30_000,
      'the cluster is unhealthy, naming the watch',
    );
    // served namespace by namespace as erin, from the namespace names the backend lists as itself
    const res = await get('/api/databases/instances', erin);
    expect(res.body.errors).toEqual([]);
    expect(listed(res.body)).toEqual(served('team-b'));
  });

  // The install: a service account that may impersonate and nothing else.
  it("with impersonation only: errors[] names what the backend lacks, not the user", async () => {
    setBackendRules(shipped.filter(r => r.verbs.includes('impersonate')));
    await eventually(
      async () => /cannot list resource "databaseinstances"/.test((await clusterHealth()).message ?? ''),
      30_000,
      "the watch's list is refused",
    );
    const res = await get('/api/databases/instances', erin);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ cluster: 'local', errorType: 'FORBIDDEN', statusCode: 403 }),
    ]);
    const { message } = res.body.errors[0];
    expect(message).toMatch(
      /^the backend's own RBAC in cluster local does not let it list namespaces, and its watch of every DatabaseInstance is refused too \(.*cannot list resource "databaseinstances".*\): give the backend's service account the ClusterRole of deploy\/backstage/,
    );
    expect(message).toContain('cannot list resource "namespaces"');
  });

  it('granted again, the watch recovers by itself', async () => {
    setBackendRules(shipped);
    await eventually(async () => (await clusterHealth()).healthy === true, 45_000, 'the cluster is healthy again');
    await eventually(() => system.apiserver.app.control.activeWatches() > 0, 20_000, "the backend's watch is open again");
    const res = await get('/api/databases/instances', erin);
    expect(listed(res.body)).toEqual(served('team-b'));
  });
});
