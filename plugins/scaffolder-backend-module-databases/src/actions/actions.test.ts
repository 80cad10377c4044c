import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mockCredentials, mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
// eslint-disable-next-line @backstage/no-mixed-plugin-imports -- the test runs the databases backend the library calls
import databasesPlugin from '@internal/plugin-databases-backend';
import type { DatabasesService } from '@internal/plugin-databases-node';
import { startSystem, type System } from '@internal/e2e';
import { createDatabaseInstanceAction } from './createDatabaseInstanceAction';
import { waitForDatabaseInstanceAction } from './waitForDatabaseInstanceAction';
import { databasesConfig, ORDERS_COMPONENT, teamIdentityMocks } from '../__testUtils__/teams';
import { instancesProbe } from '../__testUtils__/instancesProbe';

jest.setTimeout(30_000);

/** What the service handed to the (Scaffolder plugin's) auditor, in order. */
const audited: Array<{ eventId: string; meta?: any; outcome: 'success' | 'failure'; error?: string }> = [];
const recordingAuditor = mockServices.auditor.mock({
  createEvent: (async (options: any) => ({
    success: async () => void audited.push({ eventId: options.eventId, meta: options.meta, outcome: 'success' }),
    fail: async ({ error }: { error: Error }) =>
      void audited.push({ eventId: options.eventId, meta: options.meta, outcome: 'failure', error: error.message }),
  })) as any,
}).factory;

const alice = mockCredentials.user('user:default/alice');

/**
 * A user's credentials as a Scaffolder step gets them: the task keeps its initiator's
 * credentials as JSON (token included) and parses them for each step, so dates are strings.
 */
function initiator(userEntityRef: string) {
  const credentials = { ...mockCredentials.user(userEntityRef), expiresAt: new Date(Date.now() + 3_600_000) };
  return JSON.parse(JSON.stringify({ ...credentials, token: mockCredentials.user.token(userEntityRef) }));
}

describe('databases:instance:create and databases:instance:wait against the emulator', () => {
  let system: System;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  let instances: DatabasesService;
  let createAction: ReturnType<typeof createDatabaseInstanceAction>;
  let waitAction: ReturnType<typeof waitForDatabaseInstanceAction>;

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    const probe = instancesProbe();
    backend = await startTestBackend({
      features: [
        databasesPlugin,
        probe.feature,
        mockServices.rootConfig.factory({ data: { databases: databasesConfig(system) } }),
        ...teamIdentityMocks(),
        catalogServiceMock.factory({ entities: [ORDERS_COMPONENT] }),
        recordingAuditor,
      ],
    });
    instances = probe.instances();
    createAction = createDatabaseInstanceAction({ instances });
    waitAction = waitForDatabaseInstanceAction({ instances });
  });

  afterAll(async () => {
    await backend?.stop();
    await system?.stop();
  });

  /** A mock step context as `user`, optionally in a dry run, recording the log and outputs. */
  function context(input: Record<string, unknown>, options: { user?: string; dryRun?: boolean } = {}) {
    const logger = mockServices.logger.mock();
    const ctx = {
      ...createMockActionContext({ input: input as any, logger }),
      isDryRun: options.dryRun,
      getInitiatorCredentials: async () => initiator(options.user ?? 'user:default/alice'),
    };
    const outputs = () => Object.fromEntries((ctx.output as jest.Mock).mock.calls as [string, unknown][]);
    const logged = () => logger.info.mock.calls.map((c: unknown[]) => c[0]);
    return { ctx: ctx as any, outputs, logged };
  }

  const redis = (name: string, extra: Record<string, unknown> = {}) => ({
    cluster: 'local',
    namespace: 'team-a',
    name,
    engine: 'redis',
    topology: 'standalone',
    owner: 'group:default/team-a',
    ...extra,
  });

  it.each([
    ['a name that is no DNS subdomain', redis('Not_A_Name'), /name: must be a DNS subdomain/],
    ['no owner', { ...redis('no-owner'), owner: undefined }, /owner: Required/],
    ['an owner that is no entity ref', redis('bad-owner', { owner: 'group:' }), /owner: must be an entity ref/],
    ['a storage that is no quantity', redis('bad-storage', { storage: 'lots' }), /storage: must be a Kubernetes quantity/],
    ['a field the action does not know', redis('extra', { replicas: 3 }), /Unrecognized key\(s\) in object: 'replicas'/],
  ])('refuses %s with an InputError naming the field', async (_, input, message) => {
    const { ctx } = context(input);
    await expect(createAction.handler(ctx)).rejects.toMatchObject({ name: 'InputError', message: expect.stringMatching(message) });
  });

  it('refuses a size the engine does not offer, listing those it does', async () => {
    const { ctx } = context(redis('huge-cache', { size: 'enormous' }));
    await expect(createAction.handler(ctx)).rejects.toMatchObject({ name: 'InputError', message: expect.stringMatching(/no size enormous \(offered: small/) });
  });

  it('in a dry run has the cluster preview the instance and stores nothing (nor audits it)', async () => {
    const dry = context(redis('dry-cache', { component: 'component:default/orders' }), { dryRun: true });
    await createAction.handler(dry.ctx);
    // the Secret's name is known from the preview already
    expect(dry.outputs()).toEqual({
      name: 'dry-cache',
      cluster: 'local',
      namespace: 'team-a',
      pageUrl: '/databases/local/team-a/dry-cache',
      connectionSecretName: 'dry-cache-password',
    });
    expect(dry.logged()).toContainEqual(expect.stringMatching(/Dry run: the cluster accepted local\/team-a\/dry-cache; nothing was created/));
    await expect(instances.waitUntilReady(alice, { cluster: 'local', namespace: 'team-a', name: 'dry-cache' }, { timeoutMs: 5000 })).rejects.toMatchObject({
      name: 'NotFoundError',
    });
    expect(audited.filter(a => a.meta?.name === 'dry-cache')).toEqual([]);
    // the wait of a dry run waits for nothing
    const wait = context({ cluster: 'local', namespace: 'team-a', name: 'dry-cache' }, { dryRun: true });
    await waitAction.handler(wait.ctx);
    expect(wait.logged()).toEqual([expect.stringMatching(/^Dry run: would wait up to 600 s/)]);
  });

  it('is refused by the Backstage policy when the owner is another team, and by Kubernetes RBAC for a user without any', async () => {
    const other = context(redis('sneaky-cache', { owner: 'group:default/team-b' }));
    await expect(createAction.handler(other.ctx)).rejects.toMatchObject({
      name: 'NotAllowedError',
      message: 'not allowed to create sneaky-cache in team-a owned by group:default/team-b',
    });
    // dave owns himself (the policy lets him) but holds no RBAC in team-a: the cluster refuses him
    const dave = context(redis('daves-cache', { owner: 'user:default/dave' }), { user: 'user:default/dave' });
    await expect(createAction.handler(dave.ctx)).rejects.toMatchObject({ name: 'NotAllowedError' });
    expect(other.outputs()).toEqual({});
    // refused creates are audited as failures, as the portal's are
    expect(audited.filter(a => a.meta?.name === 'sneaky-cache')).toEqual([
      expect.objectContaining({ eventId: 'instance-create', outcome: 'failure', error: expect.stringMatching(/^not allowed to create/) }),
    ]);
  });

  it('creates the instance as the user (labelled for its component, sized by preset) and waits until it is Ready', async () => {
    const create = context(redis('checkout-cache', { size: 'small', storage: '2Gi', component: 'component:default/orders' }));
    await createAction.handler(create.ctx);
    expect(create.outputs()).toMatchObject({ name: 'checkout-cache', pageUrl: '/databases/local/team-a/checkout-cache' });
    // the databases plugin's create route did it on behalf of alice: its auditor and its history say so
    expect(audited.filter(a => a.meta?.name === 'checkout-cache')).toEqual([
      {
        eventId: 'instance-create',
        outcome: 'success',
        meta: expect.objectContaining({ cluster: 'local', namespace: 'team-a', request: expect.objectContaining({ owner: 'group:default/team-a', entityMayBeNew: true }) }),
      },
    ]);
    const history = await request(backend.server)
      .get('/api/databases/clusters/local/namespaces/team-a/instances/checkout-cache/history')
      .set('Authorization', mockCredentials.user.header('user:default/alice'));
    expect(history.status).toBe(200);
    expect(history.body.requests).toEqual([expect.objectContaining({ action: 'create', actor: 'user:default/alice', outcome: { status: 201 } })]);

    const wait = context({ cluster: 'local', namespace: 'team-a', name: 'checkout-cache', timeoutSeconds: 20 });
    await waitAction.handler(wait.ctx);
    expect(wait.outputs()).toMatchObject({ phase: 'Ready', pageUrl: '/databases/local/team-a/checkout-cache' });
    // progress went to the task log, phase by phase, ending Ready
    expect(wait.logged()[0]).toBe('Waiting up to 20 s for local/team-a/checkout-cache to be Ready');
    expect(wait.logged().at(-1)).toBe('local/team-a/checkout-cache is Ready');

    const ready = await instances.waitUntilReady(alice, { cluster: 'local', namespace: 'team-a', name: 'checkout-cache' }, { timeoutMs: 5000 });
    expect(ready.metadata.labels).toMatchObject({ 'backstage.io/kubernetes-id': 'orders' });
    expect(ready.metadata.annotations).toMatchObject({ 'dbaas.platform.dev/owner': 'group:default/team-a' });
    expect(ready.spec).toMatchObject({ engine: 'redis', storage: { size: '2Gi' }, resources: { requests: expect.anything() } });
  });

  it('in a task resumed after a restart, does not ask again for what it created (the checkpoint)', async () => {
    const checkpoints = new Map<string, unknown>();
    const checkpoint = async ({ key, fn }: { key: string; fn: () => Promise<unknown> }) => {
      if (!checkpoints.has(key)) checkpoints.set(key, await fn());
      return checkpoints.get(key);
    };
    const first = context(redis('resumed-cache'));
    await createAction.handler({ ...first.ctx, checkpoint });
    expect([...checkpoints.keys()]).toEqual(['databases.instance.create.local/team-a/resumed-cache']);
    // the same step again: without the checkpoint, this create would be a 409
    const again = context(redis('resumed-cache'));
    await createAction.handler({ ...again.ctx, checkpoint });
    expect(again.outputs()).toMatchObject({ name: 'resumed-cache', connectionSecretName: 'resumed-cache-password' });
    await expect(createAction.handler(context(redis('resumed-cache')).ctx)).rejects.toMatchObject({ name: 'ConflictError' });
  });

  it('labels the instance of a component the template is still creating with its name', async () => {
    const create = context(redis('billing-cache', { component: 'component:default/billing' }));
    await createAction.handler(create.ctx);
    const created = await instances.waitUntilReady(alice, { cluster: 'local', namespace: 'team-a', name: 'billing-cache' }, { timeoutMs: 20_000 });
    expect(created.metadata.labels).toMatchObject({ 'backstage.io/kubernetes-id': 'billing' });
  });

  it('fails the wait with the instance\'s reason when it fails, and after the timeout when it never gets Ready', async () => {
    system.emulator.operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'broken-db' }, 'failed', 'no space left on device');
    system.emulator.operators.setHealth({ kind: 'Redis', namespace: 'team-a', name: 'slow-cache' }, 'stalled');
    await createAction.handler(context(redis('broken-db', { engine: 'mariadb', topology: undefined })).ctx);
    await createAction.handler(context(redis('slow-cache')).ctx);

    const broken = context({ cluster: 'local', namespace: 'team-a', name: 'broken-db', timeoutSeconds: 20 });
    await expect(waitAction.handler(broken.ctx)).rejects.toThrow(/^broken-db is Failed: .*no space left on device/);
    const slow = context({ cluster: 'local', namespace: 'team-a', name: 'slow-cache', timeoutSeconds: 1 });
    await expect(waitAction.handler(slow.ctx)).rejects.toThrow(/^slow-cache was not Ready within 1 s: it is /);
    expect(slow.logged().length).toBeGreaterThanOrEqual(2);
  });

  it('waits only for an instance the user may read', async () => {
    const bob = context({ cluster: 'local', namespace: 'team-a', name: 'checkout-cache', timeoutSeconds: 5 }, { user: 'user:default/bob' });
    await expect(waitAction.handler(bob.ctx)).rejects.toMatchObject({ name: 'NotAllowedError' });
  });
});
