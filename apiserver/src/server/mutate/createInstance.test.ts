/* eslint-disable jest/expect-expect -- expectStatus() asserts */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ANNOTATION_OWNER, ANNOTATION_REQUESTED_BY, LABEL_BACKSTAGE_KUBERNETES_ID, LABEL_MANAGED_BY, LABEL_REQUESTED_BY } from '@internal/plugin-databases-common';
import { adapters, engineNames } from '../../adapters/registry';
import { KubeHttpError } from '../../kube/kubeRequest';
import { resourceName } from '../../kube/resourcePath';
import { causeFields, expectStatus } from '../__testutils__/expectStatus';
import { startTestServer, type TestServer } from '../__testutils__/testServer';
import { INSTANCES, instanceBody, json, seedInstance, writable } from '../__testutils__/writeFixtures';
import { StatusError } from '../StatusError';
import type { PolicyRequest } from './PolicyChecker';

const kubeError = (code: number, reason: string, message: string) =>
  new KubeHttpError(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

describe('POST databaseinstances (create)', () => {
  let t: TestServer;
  const policyCalls: PolicyRequest[] = [];
  let policyAnswer: StatusError | undefined;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.writer.calls.length = 0;
    t.writer.fail = () => undefined;
    t.writer.delayMs = 0;
    t.writer.projectionLagMs = 0;
    policyCalls.length = 0;
    policyAnswer = undefined;
  });

  const post = (body: string, query = '', token: string | null = 'alice', contentType = 'application/json') =>
    t.request(`${INSTANCES}${query}`, json('POST', body, token, contentType));

  it('creates the operator object with defaults, who asked and the catalog metadata, and answers 201 with the instance', async () => {
    const res = await post(
      instanceBody('orders', { engine: 'mariadb' }, {
        labels: { [LABEL_BACKSTAGE_KUBERNETES_ID]: 'orders', [LABEL_REQUESTED_BY]: 'mallory' },
        annotations: { [ANNOTATION_OWNER]: 'group:default/team-a' },
      }),
    );
    expect(res.status).toBe(201);
    const body = res.json();
    const defaults = writable('mariadb').write.defaults(writable('mariadb').write.defaultTopology);
    expect(body).toMatchObject({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: 'orders', namespace: 'team-a', uid: expect.any(String), resourceVersion: expect.stringMatching(/^\d+$/) },
      spec: { engine: 'mariadb', version: defaults.version, replicas: defaults.replicas, storage: { size: defaults.storage.size } },
      status: { phase: expect.any(String), source: { kind: 'MariaDB', name: 'orders' } },
    });
    const creates = t.writer.writes();
    expect(creates.map(c => [c.verb, c.resource])).toEqual([['create', 'mariadbs.k8s.mariadb.com']]);
    const meta = (creates[0].body as any).metadata;
    expect(meta.labels).toMatchObject({ [LABEL_BACKSTAGE_KUBERNETES_ID]: 'orders', [LABEL_REQUESTED_BY]: 'alice', [LABEL_MANAGED_BY]: expect.any(String) });
    expect(meta.annotations).toMatchObject({ [ANNOTATION_OWNER]: 'group:default/team-a', [ANNOTATION_REQUESTED_BY]: 'alice' });
    // the cache shows it at once: a GET right after the create finds it
    expect((await t.request(`${INSTANCES}/orders`)).json().metadata.uid).toBe(body.metadata.uid);
  });

  it.each(adapters.map(a => [a.engine, a.write!.defaultTopology] as const))('creates %s (%s) as its operator kind, Secrets first', async (engine, topology) => {
    const name = `e-${engine}`;
    const res = await post(instanceBody(name, { engine, topology }));
    expect(res.status).toBe(201);
    const write = writable(engine).write;
    const kind = resourceName(write.kindFor(topology));
    const calls = t.writer.writes().map(c => `${c.verb} ${c.resource}`);
    const secrets = calls.filter(c => c === 'create secrets').length;
    expect(calls.indexOf(`create ${kind}`)).toBe(secrets);
    // Secrets we made are owned by the operator object, so they go with it
    expect(calls.filter(c => c === 'mergePatch secrets')).toHaveLength(secrets);
    for (const patch of t.writer.writes().filter(c => c.verb === 'mergePatch')) {
      expect((patch.body as any).metadata.ownerReferences[0]).toMatchObject({ kind: write.kindFor(topology).kind, name, uid: expect.any(String) });
    }
  });

  it('retries the owner reference of a Secret when kube-apiserver is briefly unavailable', async () => {
    let failures = 1;
    t.writer.fail = c => (c.verb === 'mergePatch' && c.resource === 'secrets' && failures-- > 0 ? kubeError(503, 'ServiceUnavailable', 'etcdserver: leader changed') : undefined);
    const res = await post(instanceBody('owned-late', { engine: 'mysql' }));
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBeUndefined();
    const patches = t.writer.calls.filter(c => c.verb === 'mergePatch' && c.resource === 'secrets');
    expect(patches.length).toBe(t.writer.calls.filter(c => c.verb === 'create' && c.resource === 'secrets').length + 1);
  });

  it('answers 201 with a Warning naming the Secret when its owner reference is refused: it would outlive the instance', async () => {
    t.writer.fail = c => (c.verb === 'mergePatch' && c.resource === 'secrets' ? kubeError(403, 'Forbidden', 'secrets "unowned-root" is forbidden') : undefined);
    const res = await post(instanceBody('unowned', { engine: 'mysql' }));
    expect(res.status).toBe(201);
    expect(String(res.headers.warning)).toMatch(/^299 - "Secret \\"unowned-[a-z-]+\\" is not owned by InnoDBCluster \\"unowned\\" .*it outlives the instance; delete it with the instance"/);
    // a refusal is not retried
    const patches = t.writer.calls.filter(c => c.verb === 'mergePatch' && c.resource === 'secrets');
    expect(patches.length).toBe(t.writer.calls.filter(c => c.verb === 'create' && c.resource === 'secrets').length);
  });

  it('answers and serves the created instance even when the cache projects it late', async () => {
    t.writer.projectionLagMs = 60;
    const res = await post(instanceBody('late', { engine: 'mariadb' }));
    expect(res.status).toBe(201);
    expect((await t.request(`${INSTANCES}/late`)).json().metadata.uid).toBe(res.json().metadata.uid);
  });

  it('defaults apiVersion and kind when the body has none', async () => {
    const res = await post(JSON.stringify({ metadata: { name: 'bare' }, spec: { engine: 'redis' } }));
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance' });
  });

  it('accepts YAML bodies', async () => {
    const res = await post('apiVersion: dbaas.platform.dev/v1alpha1\nkind: DatabaseInstance\nmetadata:\n  name: yaml-db\nspec:\n  engine: rabbitmq\n', '', 'alice', 'application/yaml');
    expect(res.status).toBe(201);
  });

  it.each([
    [instanceBody('x', { engine: 'mariadb' }, {}, { apiVersion: 'dbaas.platform.dev/v1' }), 'the API version in the data (dbaas.platform.dev/v1) does not match the expected API version (dbaas.platform.dev/v1alpha1)'],
    [instanceBody('x', { engine: 'mariadb' }, {}, { kind: 'MariaDB' }), /^the object provided is unrecognized \(must be of type DatabaseInstance\)/],
    [instanceBody('x', { engine: 'mariadb' }, { namespace: 'team-b' }), 'the namespace of the provided object does not match the namespace sent on the request'],
    ['{"metadata": ', /^the object provided is unrecognized/],
    ['[1,2]', /^the object provided is unrecognized/],
    [instanceBody('x', { engine: 'mariadb' }, { labels: 'nope' as any }), /metadata.labels must be a map of strings/],
  ])('answers 400 for a body it cannot decode: %s', async (body, message) => {
    expectStatus(await post(body), 400, 'BadRequest', message);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it('answers 415 for other content types', async () => {
    expectStatus(await post(instanceBody('x', { engine: 'mariadb' }), '', 'alice', 'application/vnd.kubernetes.protobuf'), 415, 'UnsupportedMediaType');
  });

  it('generates a name from generateName', async () => {
    const res = await post(instanceBody(undefined, { engine: 'mariadb' }, { generateName: 'gen-' }));
    expect(res.status).toBe(201);
    expect(res.json().metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  describe('field validation', () => {
    const bogus = instanceBody('fv', { engine: 'mariadb', bogus: 1 } as any, {}, { extra: true });

    it('Strict refuses unknown fields, naming each', async () => {
      expectStatus(await post(bogus, '?fieldValidation=Strict'), 400, 'BadRequest', 'strict decoding error: unknown field "spec.bogus", unknown field "extra"');
    });

    it('Warn (the default) accepts, drops and warns with a 299 Warning header per field', async () => {
      const res = await post(instanceBody('fv-warn', { engine: 'mariadb', bogus: 1 } as any));
      expect(res.status).toBe(201);
      expect(res.headers.warning).toBe('299 - "unknown field \\"spec.bogus\\""');
      expect(res.json().spec.bogus).toBeUndefined();
      expect((t.writer.writes()[0].body as any).spec.bogus).toBeUndefined();
    });

    it('Ignore drops silently', async () => {
      const res = await post(instanceBody('fv-ignore', { engine: 'mariadb', bogus: 1 } as any), '?fieldValidation=Ignore');
      expect(res.status).toBe(201);
      expect(res.headers.warning).toBeUndefined();
    });
  });

  it.each([
    ['?dryRun=Yes', 'dryRun'],
    ['?fieldValidation=Loose', 'fieldValidation'],
    [`?fieldManager=${'m'.repeat(129)}`, 'fieldManager'],
  ])('refuses bad options %s with 422 naming %s', async (query, field) => {
    const body = expectStatus(await post(instanceBody('opt', { engine: 'mariadb' }), query), 422, 'Invalid', /^CreateOptions\.meta\.k8s\.io "" is invalid: /);
    expect(causeFields(body)).toEqual([field]);
  });

  describe('validation (422, every bad field named)', () => {
    it('names spec.engine with the supported engines when the engine is unknown', async () => {
      const body = expectStatus(await post(instanceBody('pg', { engine: 'postgres' } as any)), 422, 'Invalid');
      expect(body.details).toMatchObject({ name: 'pg', group: 'dbaas.platform.dev', kind: 'DatabaseInstance' });
      expect(body.details.causes).toEqual([expect.objectContaining({ field: 'spec.engine', reason: 'FieldValueNotSupported' })]);
      for (const engine of engineNames()) expect(body.message).toContain(`"${engine}"`);
    });

    it('reports every bad field at once, kube-style', async () => {
      const body = expectStatus(
        await post(instanceBody('Bad_Name', { engine: 'mariadb', topology: 'galera', replicas: 2, version: '9.9', storage: { size: 'lots' } }, { labels: { 'bad key!': 'v' } })),
        422,
        'Invalid',
        /^DatabaseInstance\.dbaas\.platform\.dev "Bad_Name" is invalid: \[/,
      );
      expect(causeFields(body).sort()).toEqual(['metadata.labels', 'metadata.name', 'spec.replicas', 'spec.storage.size', 'spec.version']);
      expect(t.writer.writes()).toHaveLength(0);
    });

    it('requires a name or generateName', async () => {
      const body = expectStatus(await post(instanceBody(undefined, { engine: 'mariadb' })), 422, 'Invalid');
      expect(body.details.causes).toEqual([expect.objectContaining({ field: 'metadata.name', reason: 'FieldValueRequired' })]);
    });

    it('names the topology an engine lacks', async () => {
      const body = expectStatus(await post(instanceBody('topo', { engine: 'mysql', topology: 'galera' })), 422, 'Invalid');
      expect(causeFields(body)).toContain('spec.topology');
    });
  });

  describe('policy', () => {
    let p: TestServer;
    beforeAll(async () => {
      p = await startTestServer({}, {
        policy: {
          check: request => {
            policyCalls.push(request);
            return policyAnswer;
          },
        },
      });
    });
    afterAll(async () => {
      await p.close();
    });

    it("refuses with the checker's 403 and passes it the defaulted spec, the user and the namespace's instances", async () => {
      seedInstance(p, 'mariadb', 'existing');
      policyAnswer = new StatusError(403, 'Forbidden', 'databaseinstances.dbaas.platform.dev "big" is forbidden: exceeded policy: team-a-quota');
      const res = await p.request(INSTANCES, json('POST', instanceBody('big', { engine: 'mariadb', replicas: 1 })));
      expectStatus(res, 403, 'Forbidden', 'databaseinstances.dbaas.platform.dev "big" is forbidden: exceeded policy: team-a-quota');
      expect(policyCalls).toHaveLength(1);
      expect(policyCalls[0]).toMatchObject({
        namespace: 'team-a',
        name: 'big',
        user: { username: 'alice' },
        spec: { engine: 'mariadb', version: writable('mariadb').write.defaults('standalone').version },
      });
      expect(policyCalls[0].previousSpec).toBeUndefined();
      expect(policyCalls[0].current.map(i => i.metadata.name)).toEqual(['existing']);
      expect(p.writer.writes()).toHaveLength(0);

      policyAnswer = undefined;
      expect((await p.request(INSTANCES, json('POST', instanceBody('big', { engine: 'mariadb' })))).status).toBe(201);
    });
  });

  describe('names are unique across operators (409)', () => {
    it('refuses a name another operator kind holds, naming that kind', async () => {
      seedInstance(t, 'redis', 'taken');
      const body = expectStatus(await post(instanceBody('taken', { engine: 'mariadb' })), 409, 'AlreadyExists', /^databaseinstances\.dbaas\.platform\.dev "taken" already exists: the name is used by Redis\.redis\.redis\.opstreelabs\.in "taken"$/);
      expect(body.details).toEqual({ name: 'taken', group: 'dbaas.platform.dev', kind: 'databaseinstances' });
      expect(t.writer.writes()).toHaveLength(0);
    });

    it('turns kube-apiserver\'s 409 (a create racing on another replica) into AlreadyExists', async () => {
      t.writer.fail = c => (c.verb === 'create' ? kubeError(409, 'AlreadyExists', 'mariadbs.k8s.mariadb.com "race" already exists') : undefined);
      expectStatus(await post(instanceBody('race', { engine: 'mariadb' })), 409, 'AlreadyExists', /^databaseinstances\.dbaas\.platform\.dev "race" already exists/);
    });

    it('lets exactly one of 20 concurrent creates of one name succeed', async () => {
      t.writer.delayMs = 5;
      const results = await Promise.all(Array.from({ length: 20 }, () => post(instanceBody('burst', { engine: 'mariadb' }))));
      const codes = results.map(r => r.status);
      expect(codes.filter(c => c === 201)).toHaveLength(1);
      expect(codes.filter(c => c === 409)).toHaveLength(19);
      for (const r of results.filter(x => x.status === 409)) expect(r.json().reason).toBe('AlreadyExists');
      expect(t.writer.writes().filter(c => c.verb === 'create')).toHaveLength(1);
    });
  });

  it('dryRun=All answers the would-be instance and writes nothing', async () => {
    const res = await post(instanceBody('dry', { engine: 'mysql' }), '?dryRun=All');
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ metadata: { name: 'dry', namespace: 'team-a', uid: expect.any(String) }, spec: { engine: 'mysql', topology: 'innodbcluster' } });
    expect(res.json().metadata.resourceVersion).toBeUndefined();
    expect(t.writer.writes()).toHaveLength(0);
    expectStatus(await t.request(`${INSTANCES}/dry`), 404, 'NotFound');
  });

  it('dryRun still refuses what the real request would (validation, names)', async () => {
    seedInstance(t, 'redis', 'taken-dry');
    expectStatus(await post(instanceBody('taken-dry', { engine: 'mariadb' }), '?dryRun=All'), 409, 'AlreadyExists');
    expectStatus(await post(instanceBody('dry2', { engine: 'mariadb', replicas: 0 }), '?dryRun=All'), 422, 'Invalid');
  });

  describe('failures of kube-apiserver', () => {
    it('deletes the Secrets it created when the operator object cannot be created (nothing half-made)', async () => {
      t.writer.fail = c => (c.verb === 'create' && c.resource.startsWith('innodbclusters') ? kubeError(422, 'Invalid', 'InnoDBCluster.mysql.oracle.com "half" is invalid: spec.instances: Invalid value') : undefined);
      const body = expectStatus(await post(instanceBody('half', { engine: 'mysql' })), 422, 'Invalid');
      expect(body.message).toContain('the InnoDBCluster object was refused');
      const calls = t.writer.writes().map(c => `${c.verb} ${c.resource} ${c.name}`);
      const created = calls.filter(c => c.startsWith('create secrets'));
      expect(created.length).toBeGreaterThan(0);
      expect(calls.filter(c => c.startsWith('delete secrets'))).toEqual(created.map(c => c.replace('create', 'delete')));
      expect([...t.writer.objects.keys()].filter(k => k.startsWith('secrets|team-a/half'))).toEqual([]);
    });

    it('answers 503 with Retry-After, never a hang or a 500, when kube-apiserver is unreachable', async () => {
      t.writer.fail = () => new Error('connect ECONNREFUSED 127.0.0.1:6443');
      const res = await post(instanceBody('down', { engine: 'mariadb' }));
      expectStatus(res, 503, 'ServiceUnavailable');
      expect(res.headers['retry-after']).toBe('1');
    });

    it('says so when it is the apiserver\'s own RBAC that is missing', async () => {
      t.writer.fail = () => kubeError(403, 'Forbidden', 'mariadbs.k8s.mariadb.com is forbidden: User "system:serviceaccount:dbaas:apiserver" cannot create resource "mariadbs" in API group "k8s.mariadb.com" in the namespace "team-a"');
      expectStatus(await post(instanceBody('rbac', { engine: 'mariadb' })), 403, 'Forbidden', /service account may not create mariadbs\.k8s\.mariadb\.com in namespace "team-a"/);
    });

    it('passes a missing namespace through as kube-apiserver words it', async () => {
      t.writer.fail = () => kubeError(404, 'NotFound', 'namespaces "team-a" not found');
      expectStatus(await post(instanceBody('nons', { engine: 'mariadb' })), 404, 'NotFound', 'namespaces "team-a" not found');
    });
  });
});
