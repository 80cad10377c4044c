import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter } from '../adapters/types';
import { KubeHttpError } from '../kube/kubeRequest';
import { BindingSecrets } from './BindingSecrets';

/** An adapter whose instances connect with the password in `<name>-password`. */
const adapter = {
  engine: 'redis',
  operator: 'redis-operator',
  write: {
    connectionSecretName: (source: KubeObject) => `${source.metadata?.name}-password`,
    connection: (_i: DatabaseInstance, source: KubeObject, secret?: KubeObject) => ({
      host: `${source.metadata?.name}.svc`,
      port: 6379,
      password: secret ? Buffer.from((secret as any).data.password, 'base64').toString() : undefined,
      uri: `redis://${source.metadata?.name}.svc:6379`,
      endpoints: [],
    }),
  },
} as unknown as OperatorAdapter;

const instance = (namespace: string, name: string) =>
  ({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { namespace, name, uid: `u-${name}` }, spec: { engine: 'redis' }, status: { phase: 'Ready' } }) as unknown as DatabaseInstance;
const object = (namespace: string, name: string) => ({ apiVersion: 'redis.redis.opstreelabs.in/v1beta2', kind: 'Redis', metadata: { namespace, name, uid: `o-${name}`, generation: 1 } });

/** BindingSecrets over two instances, with a writer that refuses creates as `refuse` says. */
function setup(refuse: (namespace: string) => unknown) {
  const instances = [instance('dying', 'a'), instance('alive', 'b')];
  const created: string[] = [];
  const warnings: string[] = [];
  const bindings = new BindingSecrets({
    store: {
      whenSynced: async () => {},
      watch: () => ({ stop() {} }),
      list: () => instances,
      get: (ns, name) => instances.find(i => i.metadata.namespace === ns && i.metadata.name === name),
      source: (ns, name) => ({ object: object(ns, name), adapter, kind: {} as any }),
    },
    writer: {
      get: async (_t, ns, name) =>
        name.endsWith('-password') ? { metadata: { name, namespace: ns, resourceVersion: '7' }, data: { password: Buffer.from('pw').toString('base64') } } : undefined,
      create: async (_t, obj) => {
        const err = refuse(obj.metadata!.namespace!);
        if (err) throw err;
        created.push(`${obj.metadata!.namespace}/${obj.metadata!.name}`);
        return obj;
      },
      mergePatch: async () => ({}),
    },
    logger: { warn: msg => warnings.push(msg) },
    maxInFlight: 1,
    retryMs: 60_000,
  });
  return { bindings, created, warnings };
}

describe('BindingSecrets', () => {
  it('a namespace being deleted refuses its create (403 NamespaceTerminating): only that instance goes without', async () => {
    const terminating = new KubeHttpError(403, {
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'secrets "a-binding" is forbidden: unable to create new content in namespace dying because it is being terminated',
      details: { name: 'a-binding', kind: 'secrets', causes: [{ reason: 'NamespaceTerminating', message: 'namespace dying is being terminated', field: 'metadata.namespace' }] },
    });
    const { bindings, created, warnings } = setup(ns => (ns === 'dying' ? terminating : undefined));
    await bindings.start();
    await bindings.idle();
    await bindings.stop();
    expect(created).toEqual(['alive/b-binding']);
    expect(warnings).toEqual([]);
  });

  it('RBAC refusing the create stops it writing at all, and says so once', async () => {
    const forbidden = new KubeHttpError(403, { kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: 'secrets is forbidden: User "system:serviceaccount:dbaas-system:apiserver" cannot create resource "secrets"' });
    const { bindings, created, warnings } = setup(() => forbidden);
    await bindings.start();
    await bindings.idle();
    await bindings.stop();
    expect(created).toEqual([]);
    expect(warnings).toEqual(['Cannot write binding Secrets (forbidden): instances carry no status.binding']);
  });
});
