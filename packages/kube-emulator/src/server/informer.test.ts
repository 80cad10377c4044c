import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './__testUtils__/testServer';

const GROUP = 'example.com';
const VERSION = 'v1';
const PLURAL = 'gadgets';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
};

type Gadget = k8s.KubernetesObject & { spec?: { size?: number } };

function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (condition()) resolve();
      else if (Date.now() > deadline) reject(new Error('timed out'));
      else setTimeout(tick, 20);
    };
    tick();
  });
}

/** @kubernetes/client-node's informer (list + watch) against the emulator. */
describe('client-node informer', () => {
  let t: TestServer;
  let kc: k8s.KubeConfig;

  beforeAll(async () => {
    t = await startTestServer();
    const created = await t.request(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      { body: crd },
    );
    if (created.status !== 201)
      throw new Error(`CRD not created: ${created.text}`);
    kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: 'emulator',
          server: t.handle.url,
          caData: Buffer.from(t.certs.ca).toString('base64'),
          skipTLSVerify: false,
        },
      ],
      users: [{ name: 'admin', token: 'admin-token' }],
      contexts: [{ name: 'emulator', cluster: 'emulator', user: 'admin' }],
      currentContext: 'emulator',
    });
  });
  afterAll(() => t.handle.close());

  it('lists, then receives add, update and delete events for a custom resource', async () => {
    const api = kc.makeApiClient(k8s.CustomObjectsApi);
    await api.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: 'default',
      plural: PLURAL,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'Gadget',
        metadata: { name: 'first' },
        spec: { size: 1 },
      },
    });

    const listFn = () =>
      api.listNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: 'default',
        plural: PLURAL,
      }) as Promise<k8s.KubernetesListObject<Gadget>>;
    const informer = k8s.makeInformer<Gadget>(
      kc,
      `/apis/${GROUP}/${VERSION}/namespaces/default/${PLURAL}`,
      listFn,
    );
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', o => seen.push(`add ${o.metadata?.name}`));
    informer.on('update', o =>
      seen.push(`update ${o.metadata?.name} ${o.spec?.size}`),
    );
    informer.on('delete', o => seen.push(`delete ${o.metadata?.name}`));
    informer.on('error', e => errors.push(e));
    await informer.start();
    try {
      await waitFor(() => seen.includes('add first'));
      expect(informer.list().map(o => o.metadata?.name)).toEqual(['first']);

      await api.createNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: 'default',
        plural: PLURAL,
        body: {
          apiVersion: `${GROUP}/${VERSION}`,
          kind: 'Gadget',
          metadata: { name: 'second' },
          spec: { size: 2 },
        },
      });
      await waitFor(() => seen.includes('add second'));
      await api.patchNamespacedCustomObject(
        {
          group: GROUP,
          version: VERSION,
          namespace: 'default',
          plural: PLURAL,
          name: 'first',
          body: { spec: { size: 10 } },
        },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      );
      await waitFor(() => seen.includes('update first 10'));
      await api.deleteNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: 'default',
        plural: PLURAL,
        name: 'second',
      });
      await waitFor(() => seen.includes('delete second'));

      expect(seen).toEqual([
        'add first',
        'add second',
        'update first 10',
        'delete second',
      ]);
      expect(informer.list().map(o => o.metadata?.name)).toEqual(['first']);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });
});
