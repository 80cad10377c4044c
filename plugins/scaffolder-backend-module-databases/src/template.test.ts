import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mockCredentials, mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import scaffolderPlugin from '@backstage/plugin-scaffolder-backend';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- the test runs the databases backend the actions call
import databasesPlugin from '@internal/plugin-databases-backend';
import type { DatabasesService } from '@internal/plugin-databases-node';
import { startSystem, type System } from '@internal/e2e';
import { scaffolderModuleDatabases } from './module';
import { databasesConfig, ORDERS_COMPONENT, teamIdentityMocks } from './__testUtils__/teams';
import { instancesProbe } from './__testUtils__/instancesProbe';

jest.setTimeout(30_000);

const TEMPLATE_DIR = path.resolve(__dirname, '../../../catalog/templates/new-service-with-database');
const TEMPLATE_FILE = path.join(TEMPLATE_DIR, 'template.yaml');
const alice = mockCredentials.user.header('user:default/alice');
const bob = mockCredentials.user.header('user:default/bob');

/** The example template as the catalog holds it after reading the app-config location. */
function templateEntity() {
  const entity = parseYaml(readFileSync(TEMPLATE_FILE, 'utf8'));
  entity.metadata.namespace = 'default';
  entity.metadata.annotations = {
    'backstage.io/managed-by-location': `file:${TEMPLATE_FILE}`,
    'backstage.io/managed-by-origin-location': `file:${TEMPLATE_FILE}`,
  };
  return entity;
}

/** Every file of the template's folder, as the template editor sends them to a dry run. */
function directoryContents(dir = TEMPLATE_DIR, prefix = ''): Array<{ path: string; base64Content: string }> {
  return readdirSync(dir).flatMap(name => {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    return statSync(full).isDirectory()
      ? directoryContents(full, rel)
      : [{ path: rel, base64Content: readFileSync(full).toString('base64') }];
  });
}

const values = (name: string) => ({
  name,
  description: 'Keeps the books',
  owner: 'group:default/team-a',
  cluster: 'local',
  namespace: 'team-a',
  engine: 'postgresql',
  size: 'small',
  timeoutSeconds: 20,
});

describe('the example template "New service with its own database" through the real scaffolder backend', () => {
  let system: System;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  let instances: DatabasesService;

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    const probe = instancesProbe();
    backend = await startTestBackend({
      features: [
        scaffolderPlugin,
        scaffolderModuleDatabases,
        // the portal's backend beside it, as in packages/backend: its history gets the template's requests
        databasesPlugin,
        probe.feature,
        mockServices.rootConfig.factory({ data: { databases: databasesConfig(system) } }),
        ...teamIdentityMocks(),
        catalogServiceMock.factory({ entities: [templateEntity(), ORDERS_COMPONENT] }),
      ],
    });
    instances = probe.instances();
  });

  afterAll(async () => {
    await backend?.stop();
    await system?.stop();
  });

  /** Runs the template as `user` and resolves with the finished task and its log. */
  async function run(user: string, name: string) {
    const created = await request(backend.server)
      .post('/api/scaffolder/v2/tasks')
      .set('Authorization', user)
      .send({ templateRef: 'template:default/new-service-with-database', values: values(name) });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const deadline = Date.now() + 25_000;
    let task: any;
    for (;;) {
      // the test's own wait for the task; the action inside waits on the backend's watch
      task = (await request(backend.server).get(`/api/scaffolder/v2/tasks/${id}`).set('Authorization', user)).body;
      if (['completed', 'failed', 'cancelled'].includes(task.status) || Date.now() > deadline) break;
      await new Promise(r => setTimeout(r, 100));
    }
    const events = (await request(backend.server).get(`/api/scaffolder/v2/tasks/${id}/events`).set('Authorization', user)).body as any[];
    // a step's log lines as the task page shows them, without the logger's colour and level
    const log = (stepId: string) =>
      events
        .filter(e => e.type === 'log' && e.body.stepId === stepId)
        // eslint-disable-next-line no-control-regex
        .map(e => (e.body.message as string).replace(/\u001b\[[0-9;]*m/g, '').replace(/^info: /, ''));
    return { task, events, log };
  }

  it('in a dry run (the template editor) renders the skeleton with its catalog-info and creates no database', async () => {
    const res = await request(backend.server)
      .post('/api/scaffolder/v2/dry-run')
      .set('Authorization', alice)
      .send({ template: templateEntity(), values: values('preview'), directoryContents: directoryContents() });
    expect(res.status).toBe(200);
    const files = Object.fromEntries(
      (res.body.directoryContents as Array<{ path: string; base64Content: string }>).map(f => [f.path, Buffer.from(f.base64Content, 'base64').toString('utf8')]),
    );
    const catalogInfo = parseYaml(files['catalog-info.yaml']);
    expect(catalogInfo).toEqual({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: { name: 'preview', description: 'Keeps the books', annotations: { 'backstage.io/kubernetes-id': 'preview' } },
      spec: { type: 'service', lifecycle: 'experimental', owner: 'group:default/team-a' },
    });
    expect(parseYaml(files['deploy/deployment.yaml']).spec.template.spec.containers[0].envFrom).toEqual([
      { secretRef: { name: expect.stringMatching(/^preview-db/) } },
    ]);
    expect(res.body.output.links).toEqual([{ title: 'The database in the portal', url: '/databases/local/team-a/preview-db' }]);
    await expect(
      instances.waitUntilReady(mockCredentials.user('user:default/alice'), { cluster: 'local', namespace: 'team-a', name: 'preview-db' }, { timeoutMs: 5000 }),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
    const history = await request(backend.server).get('/api/databases/clusters/local/namespaces/team-a/instances/preview-db/history').set('Authorization', alice);
    expect(history.body.requests).toEqual([]);
  });

  it('run by alice: creates her team\'s database as her, waits until it is Ready (logged step by step), links its page', async () => {
    const { task, log } = await run(alice, 'ledger');
    expect(task.status).toBe('completed');
    expect(log('database')).toContainEqual(expect.stringMatching(/Requesting postgresql instance local\/team-a\/ledger-db owned by group:default\/team-a/));
    const waited = log('ready');
    expect(waited).toContainEqual('Waiting up to 20 s for local/team-a/ledger-db to be Ready');
    expect(waited.filter(m => m.startsWith('ledger-db: ')).length).toBeGreaterThanOrEqual(1);
    expect(waited).toContainEqual('local/team-a/ledger-db is Ready');

    const ready = await instances.waitUntilReady(
      mockCredentials.user('user:default/alice'),
      { cluster: 'local', namespace: 'team-a', name: 'ledger-db' },
      { timeoutMs: 5000 },
    );
    expect(ready.metadata.labels).toMatchObject({ 'backstage.io/kubernetes-id': 'ledger' });
    expect(ready.metadata.annotations).toMatchObject({ 'dbaas.platform.dev/owner': 'group:default/team-a' });
    expect(ready.spec).toMatchObject({ engine: 'postgresql', storage: { size: expect.any(String) } });
    // on the instance's page, the request is alice's, as if she had used the portal's form
    const history = await request(backend.server).get('/api/databases/clusters/local/namespaces/team-a/instances/ledger-db/history').set('Authorization', alice);
    expect(history.body.requests).toEqual([
      expect.objectContaining({ action: 'create', actor: 'user:default/alice', outcome: { status: 201 } }),
    ]);
  });

  it('run by bob for team-a: the step fails as the portal would refuse him, and nothing is created', async () => {
    const { task, log } = await run(bob, 'intruder');
    expect(task.status).toBe('failed');
    expect(log('database').join('\n')).toMatch(/not allowed to create intruder-db in team-a owned by group:default\/team-a/);
    expect(log('ready')).toEqual(['Skipping step ready because a previous step failed']);
    const history = await request(backend.server).get('/api/databases/clusters/local/namespaces/team-a/instances/intruder-db/history').set('Authorization', alice);
    expect(history.body.requests).toEqual([
      expect.objectContaining({ action: 'create', actor: 'user:default/bob', outcome: expect.objectContaining({ status: 403 }) }),
    ]);
    await expect(
      instances.waitUntilReady(mockCredentials.user('user:default/alice'), { cluster: 'local', namespace: 'team-a', name: 'intruder-db' }, { timeoutMs: 5000 }),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
