import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  AggregationProxy,
  CustomHandler,
  RequestInfo,
  UserInfo,
} from '../api/types';
import { startTestServer, type TestServer } from './__testUtils__/testServer';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const W = '/apis/example.com/v1';
const NS_W = `${W}/namespaces/default/widgets`;
const TABLE_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['wd'],
      categories: ['toys'],
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
          {
            name: 'Age',
            type: 'date',
            jsonPath: '.metadata.creationTimestamp',
          },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer', minimum: 0 },
                  color: { type: 'string' },
                },
              },
              status: {
                type: 'object',
                properties: { phase: { type: 'string' } },
              },
            },
          },
        },
      },
    ],
  },
};

const widget = (
  name: string,
  labels: Record<string, string> = {},
  replicas = 1,
) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, labels },
  spec: { replicas },
});

const names = (list: any) => list.items.map((i: any) => i.metadata.name);

describe('createApiServer', () => {
  let t: TestServer;
  const handled: string[] = [];
  const proxied: Array<{ path: string; user: string }> = [];

  const reviews: CustomHandler = {
    handles: (info: RequestInfo) =>
      info.apiGroup === 'authentication.k8s.io' &&
      info.resource === 'tokenreviews',
    async handle(_req: IncomingMessage, res: ServerResponse, user: UserInfo) {
      handled.push(user.username);
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'TokenReview',
          apiVersion: 'authentication.k8s.io/v1',
          status: { authenticated: true },
        }),
      );
    },
  };
  const aggregation: AggregationProxy = {
    handles: info =>
      info.path.startsWith('/apis/dbaas.platform.dev/') ||
      info.path.startsWith('/openapi/v3/apis/dbaas.platform.dev/'),
    async proxy(req, res, user) {
      proxied.push({ path: req.url ?? '', user: user.username });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"proxied":true}');
    },
    groups: () => [
      {
        name: 'dbaas.platform.dev',
        versions: ['v1alpha1'],
        preferredVersion: 'v1alpha1',
      },
    ],
    openapiV3Paths: () => ({
      'apis/dbaas.platform.dev/v1alpha1': {
        serverRelativeURL:
          '/openapi/v3/apis/dbaas.platform.dev/v1alpha1?hash=1',
      },
    }),
  };

  beforeAll(async () => {
    t = await startTestServer({
      customHandlers: [reviews],
      aggregation,
      bookmarkIntervalMs: 200,
      maxBodyBytes: 64 * 1024,
      allow: (user, info) =>
        user.username === 'admin' ||
        (user.username === 'alice' &&
          info.verb === 'get' &&
          info.namespace === 'default'),
    });
    const res = await t.request('POST', CRD_PATH, { body: widgetCrd });
    if (res.status !== 201) throw new Error(`CRD not created: ${res.text}`);
  });
  afterAll(() => t.handle.close());

  describe('health, version and discovery', () => {
    it('serves health and version to anonymous clients but discovery only to authenticated ones', async () => {
      for (const path of ['/healthz', '/livez', '/readyz']) {
        const res = await t.request('GET', path, { token: null });
        expect([res.status, res.text]).toEqual([200, 'ok']);
      }
      const version = await t.request('GET', '/version', { token: null });
      expect(version.json.gitVersion).toMatch(/^v1\.\d+\.\d+$/);
      const anonymous = await t.request('GET', '/apis', { token: null });
      expect(anonymous.status).toBe(403);
      expect(anonymous.json).toMatchObject({
        kind: 'Status',
        reason: 'Forbidden',
        message: 'forbidden: User "system:anonymous" cannot get path "/apis"',
      });
      expect(
        (await t.request('GET', '/apis', { token: 'alice-token' })).status,
      ).toBe(200);
    });

    it('lists core resources, groups (with aggregated ones) and CRD resources', async () => {
      const api = await t.request('GET', '/api');
      expect(api.json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
      const v1 = await t.request('GET', '/api/v1');
      expect(v1.json.resources.map((r: any) => r.name)).toEqual(
        expect.arrayContaining([
          'namespaces',
          'namespaces/status',
          'secrets',
          'services',
          'configmaps',
          'events',
          'serviceaccounts',
        ]),
      );
      const apis = await t.request('GET', '/apis', {
        headers: {
          Accept:
            'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
        },
      });
      expect(apis.headers['content-type']).toBe('application/json');
      expect(apis.json.kind).toBe('APIGroupList');
      expect(apis.json.groups.map((g: any) => g.name)).toEqual(
        expect.arrayContaining([
          'apps',
          'apiextensions.k8s.io',
          'apiregistration.k8s.io',
          'example.com',
          'dbaas.platform.dev',
        ]),
      );
      const group = await t.request('GET', '/apis/example.com');
      expect(group.json).toMatchObject({
        kind: 'APIGroup',
        preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
      });
      const list = await t.request('GET', W);
      expect(list.json.resources).toEqual([
        {
          name: 'widgets',
          singularName: 'widget',
          namespaced: true,
          kind: 'Widget',
          verbs: [
            'create',
            'delete',
            'deletecollection',
            'get',
            'list',
            'patch',
            'update',
            'watch',
          ],
          shortNames: ['wd'],
          categories: ['toys'],
        },
        {
          name: 'widgets/status',
          singularName: '',
          namespaced: true,
          kind: 'Widget',
          verbs: ['get', 'patch', 'update'],
        },
      ]);
      const apps = await t.request('GET', '/apis/apps/v1');
      expect(apps.json.resources.map((r: any) => r.name)).toEqual(
        expect.arrayContaining(['statefulsets', 'statefulsets/status']),
      );
      // batch/v1 as kube-apiserver serves it: kubectl get jobs,cj, and `kubectl get all` lists both
      const batch = await t.request('GET', '/apis/batch/v1');
      const byName = (n: string) => batch.json.resources.find((r: any) => r.name === n);
      expect(byName('jobs')).toMatchObject({ namespaced: true, kind: 'Job', categories: ['all'] });
      expect(byName('jobs/status')).toBeDefined();
      expect(byName('cronjobs')).toMatchObject({ shortNames: ['cj'], categories: ['all'] });
      expect((await t.request('GET', '/apis/nope.example.com/v1')).status).toBe(
        404,
      );
    });

    it('merges the aggregated OpenAPI index and proxies aggregated paths after authorization', async () => {
      const index = await t.request('GET', '/openapi/v3');
      expect(Object.keys(index.json.paths)).toEqual(
        expect.arrayContaining([
          'apis/dbaas.platform.dev/v1alpha1',
          'api/v1',
          'apis/example.com/v1',
        ]),
      );
      // kubectl decides from the PATCH operation's parameters that the server validates fields itself
      const gvDoc = await t.request(
        'GET',
        index.json.paths['apis/example.com/v1'].serverRelativeURL,
      );
      const patchOp =
        gvDoc.json.paths[
          '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'
        ].patch;
      expect(patchOp['x-kubernetes-group-version-kind']).toEqual({
        group: 'example.com',
        version: 'v1',
        kind: 'Widget',
      });
      expect(patchOp.parameters.map((p: any) => p.name)).toContain(
        'fieldValidation',
      );
      const res = await t.request(
        'GET',
        '/apis/dbaas.platform.dev/v1alpha1/namespaces/default/databaseinstances',
      );
      expect(res.json).toEqual({ proxied: true });
      expect(proxied.at(-1)).toEqual({
        path: '/apis/dbaas.platform.dev/v1alpha1/namespaces/default/databaseinstances',
        user: 'admin',
      });
      const denied = await t.request(
        'GET',
        '/apis/dbaas.platform.dev/v1alpha1/databaseinstances',
        { token: 'alice-token' },
      );
      expect(denied.status).toBe(403);
      expect(proxied).toHaveLength(1);
    });
  });

  describe('authentication and authorization', () => {
    it('answers rejected credentials with 401 and adds system:authenticated', async () => {
      const res = await t.request('GET', '/api/v1/namespaces', {
        token: 'bad-token',
      });
      expect(res.json).toMatchObject({
        kind: 'Status',
        code: 401,
        reason: 'Unauthorized',
      });
      await t.request('GET', '/api/v1/namespaces/default/configmaps/x', {
        token: 'alice-token',
      });
      expect(t.authorizer.calls.at(-1)!.user.groups).toEqual([
        'dev',
        'system:authenticated',
      ]);
    });

    it.each([
      [
        '/api/v1/namespaces/kube-system/secrets/s',
        'GET',
        'secrets "s" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "kube-system"',
      ],
      [
        '/api/v1/namespaces/default/secrets',
        'GET',
        'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"',
      ],
      [
        '/apis/example.com/v1/widgets',
        'GET',
        'widgets.example.com is forbidden: User "alice" cannot list resource "widgets" in API group "example.com" at the cluster scope',
      ],
      [
        `${NS_W}/a/status`,
        'PUT',
        'widgets.example.com "a" is forbidden: User "alice" cannot update resource "widgets/status" in API group "example.com" in the namespace "default"',
      ],
    ])("forbids %s %s with kube's message", async (path, method, message) => {
      const res = await t.request(method, path, {
        token: 'alice-token',
        body: method === 'PUT' ? {} : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message,
      });
    });

    it('calls custom handlers before the generic handlers', async () => {
      const res = await t.request(
        'POST',
        '/apis/authentication.k8s.io/v1/tokenreviews',
        { body: { spec: { token: 'x' } } },
      );
      expect(res.status).toBe(201);
      expect(handled).toEqual(['admin']);
    });
  });

  describe('CRUD', () => {
    it('creates, reads, updates with optimistic concurrency, patches and deletes', async () => {
      const created = await t.request('POST', NS_W, {
        body: widget('crud', { app: 'x' }),
      });
      expect(created.status).toBe(201);
      expect(created.json.metadata).toMatchObject({
        name: 'crud',
        namespace: 'default',
        generation: 1,
      });
      expect(typeof created.json.metadata.resourceVersion).toBe('string');
      expect(
        (await t.request('POST', NS_W, { body: widget('crud') })).json,
      ).toMatchObject({ code: 409, reason: 'AlreadyExists' });

      const got = await t.request('GET', `${NS_W}/crud`);
      expect(got.json).toEqual(created.json);
      const put = await t.request('PUT', `${NS_W}/crud`, {
        body: { ...got.json, spec: { replicas: 2 } },
      });
      expect(put.json.metadata.generation).toBe(2);
      const stale = await t.request('PUT', `${NS_W}/crud`, {
        body: { ...got.json, spec: { replicas: 3 } },
      });
      expect(stale.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Operation cannot be fulfilled on widgets.example.com "crud": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        details: { name: 'crud', group: 'example.com', kind: 'widgets' },
        code: 409,
      });

      const merge = await t.request('PATCH', `${NS_W}/crud`, {
        body: {
          metadata: { labels: { app: null, tier: 'web' } },
          spec: { color: 'red' },
        },
        contentType: 'application/merge-patch+json',
      });
      expect(merge.json.metadata.labels).toEqual({ tier: 'web' });
      expect(merge.json.spec).toEqual({ replicas: 2, color: 'red' });
      const jsonPatch = await t.request('PATCH', `${NS_W}/crud`, {
        body: [{ op: 'replace', path: '/spec/replicas', value: 5 }],
        contentType: 'application/json-patch+json',
      });
      expect(jsonPatch.json.spec.replicas).toBe(5);
      const failingOp = await t.request('PATCH', `${NS_W}/crud`, {
        body: [{ op: 'test', path: '/spec/replicas', value: 1 }],
        contentType: 'application/json-patch+json',
      });
      expect(failingOp.json).toMatchObject({ code: 422, reason: 'Invalid' });
      const stalePatch = await t.request('PATCH', `${NS_W}/crud`, {
        body: {
          metadata: { resourceVersion: got.json.metadata.resourceVersion },
          spec: { replicas: 1 },
        },
        contentType: 'application/merge-patch+json',
      });
      expect(stalePatch.json).toMatchObject({ code: 409, reason: 'Conflict' });

      const deleted = await t.request('DELETE', `${NS_W}/crud`);
      expect(deleted.json).toMatchObject({
        kind: 'Status',
        status: 'Success',
        details: {
          name: 'crud',
          kind: 'widgets',
          uid: created.json.metadata.uid,
        },
      });
      expect((await t.request('GET', `${NS_W}/crud`)).json).toMatchObject({
        code: 404,
        reason: 'NotFound',
        message: 'widgets.example.com "crud" not found',
      });
    });

    it.each([
      ['application/strategic-merge-patch+json', 415],
      ['application/apply-patch+yaml', 415],
      ['text/plain', 415],
    ])(
      'refuses %s patches of custom resources with %d',
      async (contentType, code) => {
        await t.request('POST', NS_W, { body: widget('patchy') });
        const res = await t.request('PATCH', `${NS_W}/patchy`, {
          body: { spec: {} },
          contentType,
        });
        expect(res.json).toMatchObject({
          code,
          reason: 'UnsupportedMediaType',
        });
        expect(res.json.message).toMatch(
          /^the body of the request was in an unknown format - accepted media types include: /,
        );
      },
    );

    it('applies strategic merge patches to built-in kinds as merge patches', async () => {
      await t.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'cm' }, data: { a: '1' } },
      });
      const res = await t.request(
        'PATCH',
        '/api/v1/namespaces/default/configmaps/cm',
        {
          body: { data: { b: '2' }, $setElementOrder: [] },
          contentType: 'application/strategic-merge-patch+json',
        },
      );
      expect(res.json.data).toEqual({ a: '1', b: '2' });
      expect(res.json).not.toHaveProperty('$setElementOrder');
    });

    it('writes status only through the status subresource', async () => {
      const created = (
        await t.request('POST', NS_W, {
          body: { ...widget('st'), status: { phase: 'Ignored' } },
        })
      ).json;
      expect(created.status).toBeUndefined();
      const res = await t.request('PUT', `${NS_W}/st/status`, {
        body: { ...created, spec: { replicas: 9 }, status: { phase: 'Ready' } },
      });
      expect(res.json.status).toEqual({ phase: 'Ready' });
      expect(res.json.spec).toEqual({ replicas: 1 });
      const patched = await t.request('PATCH', `${NS_W}/st/status`, {
        body: { status: { phase: 'Degraded' } },
        contentType: 'application/merge-patch+json',
      });
      expect(patched.json.status.phase).toBe('Degraded');
      expect(
        (await t.request('GET', `${NS_W}/st/status`)).json.status.phase,
      ).toBe('Degraded');
    });

    it('returns 422 naming every bad field, and warns about or rejects unknown fields', async () => {
      const res = await t.request('POST', NS_W, {
        body: { ...widget('bad'), spec: { replicas: -1, color: 7 } },
      });
      expect(res.status).toBe(422);
      expect(res.json.details.kind).toBe('Widget');
      expect(res.json.details.causes.map((c: any) => c.field).sort()).toEqual([
        'spec.color',
        'spec.replicas',
      ]);
      expect(res.json.message).toContain(
        'Widget.example.com "bad" is invalid: [',
      );
      const warn = await t.request('POST', NS_W, {
        body: { ...widget('warn'), spec: { replicas: 1, extra: true } },
      });
      expect(warn.status).toBe(201);
      expect(warn.headers.warning).toBe(
        '299 - "unknown field \\"spec.extra\\""',
      );
      expect(warn.json.spec).toEqual({ replicas: 1 });
      const strict = await t.request('POST', `${NS_W}?fieldValidation=Strict`, {
        body: { ...widget('strict'), spec: { extra: true } },
      });
      expect(strict.json).toMatchObject({
        code: 400,
        message: 'strict decoding error: unknown field "spec.extra"',
      });
    });

    it.each([
      ['POST', '/apis/example.com/v1/widgets', 405],
      ['POST', `${W}/namespaces/nope/widgets`, 404],
      ['GET', `${W}/namespaces/default/gadgets`, 404],
      ['GET', '/api/v1/namespaces/default/namespaces', 404],
      ['GET', `${NS_W}/x/scale`, 404],
    ])('%s %s ⇒ %d Status', async (method, path, code) => {
      const res = await t.request(method, path, {
        body: method === 'POST' ? widget('x') : undefined,
      });
      expect(res.status).toBe(code);
      expect(res.json).toMatchObject({ kind: 'Status', code });
    });

    it('rejects bodies over the limit with 413 and mismatched names or namespaces with 400', async () => {
      const big = await t.request(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        {
          body: {
            metadata: { name: 'big' },
            data: { x: 'y'.repeat(70 * 1024) },
          },
        },
      );
      expect(big.json).toMatchObject({
        code: 413,
        reason: 'RequestEntityTooLarge',
      });
      const ns = await t.request('POST', NS_W, {
        body: { ...widget('w'), metadata: { name: 'w', namespace: 'other' } },
      });
      expect(ns.json).toMatchObject({
        code: 400,
        message:
          'the namespace of the provided object does not match the namespace sent on the request',
      });
      const name = await t.request('PUT', `${NS_W}/one`, {
        body: widget('two'),
      });
      expect(name.json).toMatchObject({
        code: 400,
        message:
          'the name of the object (two) does not match the name on the URL (one)',
      });
      const garbage = await t.request('POST', NS_W, { body: '{not json' });
      expect(garbage.json).toMatchObject({ code: 400, reason: 'BadRequest' });
    });

    it('does not persist dry runs', async () => {
      const rv = t.store.currentRV();
      const res = await t.request('POST', `${NS_W}?dryRun=All`, {
        body: widget('dry'),
      });
      expect(res.status).toBe(201);
      expect(res.json.metadata.uid).toBeDefined();
      expect(t.store.currentRV()).toBe(rv);
      expect((await t.request('GET', `${NS_W}/dry`)).status).toBe(404);
      expect(
        (
          await t.request('POST', `${NS_W}?dryRun=Some`, {
            body: widget('dry'),
          })
        ).status,
      ).toBe(422);
    });

    it('deletes collections by label', async () => {
      await t.request('POST', '/api/v1/namespaces', {
        body: { metadata: { name: 'dc' } },
      });
      for (const n of ['a', 'b', 'c']) {
        await t.request('POST', `${W}/namespaces/dc/widgets`, {
          body: widget(n, { gone: n === 'c' ? 'no' : 'yes' }),
        });
      }
      const res = await t.request(
        'DELETE',
        `${W}/namespaces/dc/widgets?labelSelector=gone%3Dyes`,
      );
      expect(res.json.kind).toBe('WidgetList');
      expect(names(res.json)).toEqual(['a', 'b']);
      expect(
        names((await t.request('GET', `${W}/namespaces/dc/widgets`)).json),
      ).toEqual(['c']);
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      await t.request('POST', '/api/v1/namespaces', {
        body: { metadata: { name: 'lists' } },
      });
      for (const [n, env] of [
        ['l1', 'prod'],
        ['l2', 'dev'],
        ['l3', 'prod'],
        ['l4', 'test'],
        ['l5', 'prod'],
      ]) {
        await t.request('POST', `${W}/namespaces/lists/widgets`, {
          body: widget(n, { env }),
        });
      }
    });
    const L = `${W}/namespaces/lists/widgets`;
    let restoreLists: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await restoreLists?.();
      restoreLists = undefined;
    });

    it.each([
      ['labelSelector=env%3Dprod', ['l1', 'l3', 'l5']],
      ['labelSelector=env%20in%20(dev,test)', ['l2', 'l4']],
      ['labelSelector=env!%3Dprod', ['l2', 'l4']],
      ['labelSelector=!env', []],
      ['fieldSelector=metadata.name%3Dl2', ['l2']],
      [
        'fieldSelector=metadata.name!%3Dl2,metadata.namespace%3Dlists',
        ['l1', 'l3', 'l4', 'l5'],
      ],
    ])('filters with %s', async (query, expected) => {
      const res = await t.request('GET', `${L}?${query}`);
      expect(res.json.kind).toBe('WidgetList');
      expect(names(res.json)).toEqual(expected);
    });

    it('lists across namespaces with items carrying their namespace', async () => {
      const res = await t.request('GET', `${W}/widgets?labelSelector=env`);
      expect(
        res.json.items.every(
          (i: any) => i.metadata.namespace === 'lists' && i.kind === 'Widget',
        ),
      ).toBe(true);
      expect(res.json.metadata.resourceVersion).toBe(
        String(t.store.currentRV()),
      );
    });

    it.each([
      [
        'fieldSelector=status.phase%3DReady',
        400,
        '"status.phase" is not a known field selector: only "metadata.name", "metadata.namespace"',
      ],
      ['labelSelector=env%20in%20prod', 400, /^unable to parse requirement: /],
      [
        'resourceVersionMatch=NotOlderThan',
        422,
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      ],
      [
        'sendInitialEvents=true',
        422,
        /sendInitialEvents is forbidden for list$/,
      ],
      ['continue=garbage', 400, /^invalid continue token: /],
      [
        'resourceVersion=5&resourceVersionMatch=Exact',
        410,
        'The resourceVersion for the provided list is too old.',
      ],
    ])('rejects %s with %d', async (query, code, message) => {
      const res = await t.request('GET', `${L}?${query}`);
      expect(res.json).toMatchObject({ kind: 'Status', code });
      expect(res.json.message).toMatch(message);
    });

    it('pages with continue tokens over one consistent snapshot', async () => {
      const first = await t.request('GET', `${L}?limit=2`);
      expect(names(first.json)).toEqual(['l1', 'l2']);
      expect(first.json.metadata.remainingItemCount).toBe(3);
      await t.request('DELETE', `${L}/l3`);
      await t.request('POST', L, { body: widget('l6') });
      // the other tests of this describe, in any order, see the five widgets they were given
      restoreLists = async () => {
        await t.request('DELETE', `${L}/l6`);
        await t.request('POST', L, { body: widget('l3', { env: 'prod' }) });
      };
      const second = await t.request(
        'GET',
        `${L}?limit=2&continue=${first.json.metadata.continue}`,
      );
      expect(names(second.json)).toEqual(['l3', 'l4']);
      expect(second.json.metadata.resourceVersion).toBe(
        first.json.metadata.resourceVersion,
      );
      const third = await t.request(
        'GET',
        `${L}?limit=2&continue=${second.json.metadata.continue}`,
      );
      expect(names(third.json)).toEqual(['l5']);
      expect(third.json.metadata.continue).toBeUndefined();
      const all = await t.request('GET', `${L}?limit=2&resourceVersion=0`);
      expect(names(all.json)).toEqual(['l1', 'l2', 'l4', 'l5', 'l6']);
    });

    it('pages of lists with different selectors, read in turns, each hold its own objects of one snapshot', async () => {
      const page = (query: string) => t.request('GET', `${L}?limit=1&${query}`);
      const collect = async (selector: string) => ({ selector, names: [] as string[], next: (await page(`labelSelector=${selector}`)).json });
      const lists = [await collect('env%3Dprod'), await collect('env!%3Dprod')];
      // a write between pages is not in them
      await t.request('POST', L, { body: widget('l0', { env: 'prod' }) });
      restoreLists = async () => {
        await t.request('DELETE', `${L}/l0`);
      };
      for (let turn = 0; lists.some(l => l.next); turn++) {
        for (const l of lists) {
          if (!l.next) continue;
          l.names.push(...names(l.next));
          const token = l.next.metadata.continue;
          l.next = token ? (await page(`labelSelector=${l.selector}&continue=${token}`)).json : undefined;
        }
        expect(turn).toBeLessThan(5);
      }
      expect(lists.map(l => l.names)).toEqual([
        ['l1', 'l3', 'l5'],
        ['l2', 'l4'],
      ]);
    });

    it('answers Table and PartialObjectMetadataList, falls back to JSON, and refuses unsupported Accept with 406', async () => {
      const table = await t.request('GET', `${L}?labelSelector=env%3Ddev`, {
        headers: { Accept: TABLE_ACCEPT },
      });
      expect(table.json.kind).toBe('Table');
      expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual([
        'Name',
        'Replicas',
        'Phase',
        'Age',
      ]);
      expect(table.json.rows).toHaveLength(1);
      expect(table.json.rows[0].cells.slice(0, 3)).toEqual(['l2', 1, null]);
      expect(table.json.rows[0].cells[3]).toMatch(/^\d+s$/);
      expect(table.json.rows[0].object).toMatchObject({
        kind: 'PartialObjectMetadata',
        metadata: { name: 'l2', namespace: 'lists' },
      });
      const one = await t.request('GET', `${L}/l2`, {
        headers: { Accept: TABLE_ACCEPT },
      });
      expect(one.json.rows).toHaveLength(1);
      const pom = await t.request('GET', `${L}?labelSelector=env%3Ddev`, {
        headers: {
          Accept:
            'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
        },
      });
      expect(pom.json).toMatchObject({
        kind: 'PartialObjectMetadataList',
        apiVersion: 'meta.k8s.io/v1',
        items: [{ kind: 'PartialObjectMetadata', metadata: { name: 'l2' } }],
      });
      const fallback = await t.request('GET', L, {
        headers: {
          Accept: 'application/json;as=Unknown;g=x;v=v1, application/json',
        },
      });
      expect(fallback.json.kind).toBe('WidgetList');
      const refused = await t.request('GET', L, {
        headers: { Accept: 'application/vnd.kubernetes.protobuf' },
      });
      expect(refused.json).toMatchObject({
        code: 406,
        reason: 'NotAcceptable',
      });
      const nsTable = await t.request('GET', '/api/v1/namespaces/lists', {
        headers: { Accept: TABLE_ACCEPT },
      });
      expect(nsTable.json.columnDefinitions.map((c: any) => c.name)).toEqual([
        'Name',
        'Status',
        'Age',
      ]);
      expect(nsTable.json.rows[0].cells.slice(0, 2)).toEqual([
        'lists',
        'Active',
      ]);
    });
  });

  describe('watch', () => {
    const WN = `${W}/namespaces/default/widgets`;

    it('streams changes after a resourceVersion in RV order with kind and apiVersion on every object', async () => {
      const from = t.store.currentRV();
      await t.request('POST', WN, { body: widget('w1') });
      await t.request('PATCH', `${WN}/w1`, {
        body: { spec: { replicas: 2 } },
        contentType: 'application/merge-patch+json',
      });
      await t.request('DELETE', `${WN}/w1`);
      const res = await t.watch(
        `${WN}?watch=true&resourceVersion=${from}`,
        ev => ev.length >= 3,
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.events.map(e => e.type)).toEqual([
        'ADDED',
        'MODIFIED',
        'DELETED',
      ]);
      const rvs = res.events.map(e =>
        Number(e.object.metadata.resourceVersion),
      );
      expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
      expect(new Set(rvs).size).toBe(3);
      expect(
        res.events.every(
          e =>
            e.object.kind === 'Widget' &&
            e.object.apiVersion === 'example.com/v1',
        ),
      ).toBe(true);
    });

    it('sends synthetic ADDED events without a resourceVersion, then live events', async () => {
      await t.request('POST', WN, {
        body: widget('existing', { watch: 'synthetic' }),
      });
      const res = await t.watch(
        `${WN}?watch=1&labelSelector=watch%3Dsynthetic`,
        ev => ev.length >= 2,
        {
          onOpen: () =>
            void t.request('POST', WN, {
              body: widget('live', { watch: 'synthetic' }),
            }),
        },
      );
      expect(
        res.events.map(e => `${e.type} ${e.object.metadata.name}`),
      ).toEqual(['ADDED existing', 'ADDED live']);
    });

    it('implements WatchList: initial events, then the k8s.io/initial-events-end bookmark', async () => {
      await t.request('POST', WN, { body: widget('wl', { watch: 'list' }) });
      const res = await t.watch(
        `${WN}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=&labelSelector=watch%3Dlist`,
        ev => ev.some(e => e.type === 'BOOKMARK'),
      );
      expect(res.events[0]).toMatchObject({
        type: 'ADDED',
        object: { metadata: { name: 'wl' } },
      });
      expect(res.events[1]).toEqual({
        type: 'BOOKMARK',
        object: {
          kind: 'Widget',
          apiVersion: 'example.com/v1',
          metadata: {
            resourceVersion: expect.any(String),
            annotations: { 'k8s.io/initial-events-end': 'true' },
          },
        },
      });
      const bad = await t.request(
        'GET',
        `${WN}?watch=true&sendInitialEvents=true`,
      );
      expect(bad.json).toMatchObject({ code: 422, reason: 'Invalid' });
    });

    it('sends periodic bookmarks with the current resourceVersion when allowed', async () => {
      const res = await t.watch(
        `${WN}?watch=true&resourceVersion=${t.store.currentRV()}&allowWatchBookmarks=true`,
        ev => ev.length >= 2,
        {
          timeoutMs: 3000,
        },
      );
      expect(res.events.map(e => e.type)).toEqual(['BOOKMARK', 'BOOKMARK']);
      expect(res.events[0].object).toEqual({
        kind: 'Widget',
        apiVersion: 'example.com/v1',
        metadata: { resourceVersion: String(t.store.currentRV()) },
      });
    });

    it('answers a too old resourceVersion with one 410 ERROR event and ends the stream', async () => {
      const res = await t.watch(
        `${WN}?watch=true&resourceVersion=1`,
        () => false,
      );
      expect(res.ended).toBe(true);
      expect(res.events).toEqual([
        {
          type: 'ERROR',
          object: expect.objectContaining({
            kind: 'Status',
            code: 410,
            reason: 'Expired',
            message: `too old resource version: 1 (${t.store.oldestRV()})`,
          }),
        },
      ]);
    });

    it('turns selector transitions into ADDED and DELETED', async () => {
      const created = (
        await t.request('POST', WN, { body: widget('tr', { color: 'blue' }) })
      ).json;
      const from = created.metadata.resourceVersion;
      const setColor = (color: string) =>
        t.request('PATCH', `${WN}/tr`, {
          body: { metadata: { labels: { color } } },
          contentType: 'application/merge-patch+json',
        });
      await setColor('red');
      await setColor('red2');
      await setColor('blue');
      const res = await t.watch(
        `${WN}?watch=true&resourceVersion=${from}&labelSelector=color%20in%20(red,red2)`,
        ev => ev.length >= 3,
      );
      expect(
        res.events.map(e => [e.type, e.object.metadata.labels.color]),
      ).toEqual([
        ['ADDED', 'red'],
        ['MODIFIED', 'red2'],
        // stopped matching: the previous state, with the resourceVersion of the change
        ['DELETED', 'red2'],
      ]);
      const rvs = res.events.map(e =>
        Number(e.object.metadata.resourceVersion),
      );
      expect(rvs[2]).toBeGreaterThan(rvs[1]);
      expect(rvs[2]).toBe(
        Number(
          (await t.request('GET', `${WN}/tr`)).json.metadata.resourceVersion,
        ),
      );
    });

    it('ends the stream cleanly after timeoutSeconds with a final bookmark', async () => {
      const started = Date.now();
      const res = await t.watch(
        `${WN}?watch=true&resourceVersion=${t.store.currentRV()}&timeoutSeconds=1&allowWatchBookmarks=true`,
        () => false,
        {
          timeoutMs: 4000,
        },
      );
      expect(res.ended).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(res.events.at(-1).type).toBe('BOOKMARK');
    });

    it('transforms watch events into Table rows and PartialObjectMetadata', async () => {
      const from = t.store.currentRV();
      await t.request('POST', WN, { body: widget('tx1') });
      await t.request('POST', WN, { body: widget('tx2') });
      const table = await t.watch(
        `${WN}?watch=true&resourceVersion=${from}`,
        ev => ev.length >= 2,
        { headers: { Accept: TABLE_ACCEPT } },
      );
      expect(table.events[0].object.kind).toBe('Table');
      expect(table.events[0].object.columnDefinitions.length).toBeGreaterThan(
        0,
      );
      expect(table.events[1].object.columnDefinitions).toEqual([]);
      expect(table.events[1].object.rows[0].cells[0]).toBe('tx2');
      const pom = await t.watch(
        `${WN}?watch=true&resourceVersion=${from}`,
        ev => ev.length >= 1,
        {
          headers: {
            Accept:
              'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
          },
        },
      );
      expect(pom.events[0].object).toMatchObject({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { name: 'tx1' },
      });
    });

    it('releases the subscription when the client disconnects', async () => {
      // the store's subscriptions by identity: an earlier test's watch may still be closing, and
      // its hang-up reaching the server meanwhile would move a count
      const subscribers = () => (t.store as any).log.subscribers as Set<unknown>;
      const before = new Set(subscribers());
      const added = () => [...subscribers()].filter(s => !before.has(s));
      let during = 0;
      await t.watch(`${WN}?watch=true`, () => {
        during = added().length;
        return true;
      });
      expect(during).toBe(1);
      // the client's hang-up reaches the server as I/O, after any sleep on a loaded event loop:
      // waited for (at most 5 s)
      for (const deadline = Date.now() + 5000; added().length > 0 && Date.now() < deadline; ) {
        await new Promise(r => setTimeout(r, 10));
      }
      expect(added()).toEqual([]);
    });
  });

  describe('faults', () => {
    it('answers 503 while unavailable but keeps health probes up', async () => {
      t.handle.setFault('unavailable');
      try {
        const res = await t.request('GET', '/api/v1/namespaces');
        expect(res.json).toMatchObject({
          code: 503,
          reason: 'ServiceUnavailable',
        });
        expect(res.headers['retry-after']).toBe('1');
        expect((await t.request('GET', '/livez')).status).toBe(200);
      } finally {
        t.handle.setFault('none');
      }
      expect((await t.request('GET', '/api/v1/namespaces')).status).toBe(200);
    });
  });
});
