import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeKubeApi, until } from '../cache/testKubeApi';
import { kubeConfigForServer } from '../kube/createKubeConfig';
import { kubePolicyReader } from './kubePolicyReader';
import { kubeNamespaceLabels, NAMESPACE_TYPE } from './NamespaceLabels';
import { PolicySource } from './PolicySource';

const PATH = '/api/v1/namespaces/dbaas-system/configmaps/dbaas-policy';

/** Answers GET of the one ConfigMap with whatever the test sets. */
function configMapServer() {
  const state: { code: number; body: unknown; paths: string[] } = {
    code: 404,
    body: undefined,
    paths: [],
  };
  const server = http.createServer((req, res) => {
    state.paths.push(req.url!);
    const found = req.method === 'GET' && req.url === PATH;
    const code = found ? state.code : 404;
    const body =
      found && state.code !== 404
        ? state.body
        : {
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            reason: 'NotFound',
            code: 404,
            message: 'configmaps "dbaas-policy" not found',
          };
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  return { state, server };
}

const configMap = (data?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'dbaas-policy', namespace: 'dbaas-system' },
  ...(data ? { data } : {}),
});

describe('kubePolicyReader', () => {
  const { state, server } = configMapServer();
  let read: () => Promise<Record<string, string> | undefined>;
  beforeAll(async () => {
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const kc = kubeConfigForServer(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    );
    read = kubePolicyReader(kc, 'dbaas-system', 'dbaas-policy');
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  });

  it('reads the data of the named ConfigMap', async () => {
    state.code = 200;
    state.body = configMap({ 'policy.yaml': 'rules: []' });
    await expect(read()).resolves.toEqual({ 'policy.yaml': 'rules: []' });
    expect(state.paths.at(-1)).toBe(PATH);
  });

  it('reads a ConfigMap without data as empty', async () => {
    state.code = 200;
    state.body = configMap();
    await expect(read()).resolves.toEqual({});
  });

  it('resolves undefined (no policy) on 404', async () => {
    state.code = 404;
    await expect(read()).resolves.toBeUndefined();
  });

  it("rejects on other errors, which PolicySource reports with the server's message", async () => {
    state.code = 403;
    state.body = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'configmaps "dbaas-policy" is forbidden: no',
    };
    await expect(read()).rejects.toMatchObject({ code: 403 });
    const source = new PolicySource({
      read,
      configMap: 'dbaas-system/dbaas-policy',
    });
    expect(await source.refresh()).toBe(false);
    expect(source.problems()).toEqual([
      'cannot read ConfigMap dbaas-system/dbaas-policy: HTTP 403: configmaps "dbaas-policy" is forbidden: no',
    ]);
  });
});

describe('kubeNamespaceLabels', () => {
  const api = new FakeKubeApi([NAMESPACE_TYPE], []);
  const ns = (name: string, labels?: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      ...(labels ? { labels } : {}),
      managedFields: [{ manager: 'kubectl' }],
    },
  });
  beforeAll(async () => {
    await new Promise<void>(r => api.server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    api.server.closeAllConnections();
    await new Promise(r => api.server.close(r));
  });

  it('lists, then follows label changes and deletions through the watch', async () => {
    api.put(NAMESPACE_TYPE, ns('team-a', { tier: 'dev' }));
    api.put(NAMESPACE_TYPE, ns('team-b'));
    const labels = kubeNamespaceLabels(kubeConfigForServer(api.url()));
    expect(labels.problems()).toEqual(['namespaces not listed yet']);
    labels.start();
    try {
      await until(() => labels.hasSynced(), 'namespaces listed');
      expect(labels.get('team-a')).toEqual({ tier: 'dev' });
      expect(labels.get('team-b')).toEqual({});
      expect(labels.get('team-c')).toBeUndefined();
      expect(labels.problems()).toEqual([]);
      await until(() => api.watching(NAMESPACE_TYPE) > 0, 'namespace watch');

      api.put(NAMESPACE_TYPE, ns('team-a', { tier: 'prod' }));
      api.put(NAMESPACE_TYPE, ns('team-c', { sandbox: 'yes' }));
      api.remove(NAMESPACE_TYPE, ns('team-b'));
      await until(() => labels.get('team-a')?.tier === 'prod', 'label change');
      await until(() => labels.get('team-c') !== undefined, 'new namespace');
      await until(
        () => labels.get('team-b') === undefined,
        'deleted namespace',
      );
      expect(labels.get('team-c')).toEqual({ sandbox: 'yes' });
    } finally {
      labels.stop();
    }
  });
});
