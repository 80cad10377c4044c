import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decode, ROTATION_MS } from '../cluster/bindingCase';
import { eventually } from '../reliability/support/eventually';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

const RAW = '/apis/dbaas.platform.dev/v1alpha1/namespaces';

/**
 * Every instance is a servicebinding.io Provisioned Service: `status.binding.name` names a Secret
 * in its namespace with the specification's entries, which equal the `connection` subresource's
 * values; the apiserver keeps it as the operator's credentials change, and it goes with the
 * instance. All through kubectl, as a platform engineer checks it.
 */
describe('Service Binding Secrets through kubectl', () => {
  const { file } = kubectlBinaries([])[0];
  let system: System;
  const kubectl = async (...args: string[]) => {
    const r = await runKubectl(file, system.kubeconfig, `${system.dir}/home-binding`, args);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const json = async (...args: string[]) => JSON.parse(await kubectl(...args, '-o', 'json'));
  const connection = async (ns: string, name: string) => JSON.parse(await kubectl('get', '--raw', `${RAW}/${ns}/databaseinstances/${name}/connection`));
  const secretOrNone = async (ns: string, name: string) => {
    const r = await runKubectl(file, system.kubeconfig, `${system.dir}/home-binding`, ['get', 'secret', name, '-n', ns, '-o', 'json', '--ignore-not-found']);
    return r.stdout.trim() ? JSON.parse(r.stdout) : undefined;
  };

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('every instance of every engine names its binding Secret, whose entries are the connection subresource\'s', async () => {
    const bound = async () => (await json('get', 'dbi', '-A')).items as any[];
    // an instance whose operator has not made its credentials yet has no binding yet (Pending ones)
    const ready = (await bound()).filter(i => i.status?.phase === 'Ready');
    const engines = new Set(ready.map(i => i.spec.engine));
    expect([...engines].sort()).toEqual(['elasticsearch', 'mariadb', 'mysql', 'postgresql', 'rabbitmq', 'redis']);
    await eventually(
      async () => {
        const now = await bound();
        return ready.every(r => now.find(i => i.metadata.uid === r.metadata.uid)?.status?.binding?.name);
      },
      20_000,
      () => 'not every Ready instance has status.binding',
    );
    for (const instance of ready) {
      const { namespace, name } = instance.metadata;
      const served = await json('get', 'dbi', name, '-n', namespace);
      const secret = await json('get', 'secret', served.status.binding.name, '-n', namespace);
      const entries = decode(secret.data);
      const conn = await connection(namespace, name);
      const where = `${namespace}/${name} (${instance.spec.engine})`;
      expect({ where, ...entries }).toEqual({
        where,
        type: { mariadb: 'mysql', mysql: 'mysql' }[conn.engine as string] ?? conn.engine,
        provider: served.status.source.operator,
        host: conn.host,
        port: String(conn.port),
        ...(conn.username !== undefined && { username: conn.username }),
        ...(conn.password !== undefined && { password: conn.password }),
        // what Bitnami's charts (WordPress) read, beside the specification's entries
        ...(conn.password !== undefined && ['mariadb', 'mysql'].includes(conn.engine) && { 'mariadb-password': conn.password }),
        ...(conn.database !== undefined && { database: conn.database }),
        uri: conn.uri,
      });
      expect(secret.type).toBe(`servicebinding.io/${entries.type}`);
      // owned by the operator object: Kubernetes' garbage collector deletes it with it
      expect(secret.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: served.status.source.kind, name: served.status.source.name, uid: served.metadata.uid }),
      ]);
    }
  }, 120_000);

  it('follows a rotation of the operator\'s password within 5 s', async () => {
    const [ns, name] = ['team-a', 'orders-db'];
    const before = await connection(ns, name);
    expect(before.password).toBeTruthy();
    const operatorSecret = await json('get', 'secret', before.secretRef.name, '-n', ns);
    const key = Object.entries(decode(operatorSecret.data)).find(([, v]) => v === before.password)![0];
    const rotated = `rotated-${Date.now()}`;
    await kubectl('patch', 'secret', before.secretRef.name, '-n', ns, '--type', 'merge', '-p', JSON.stringify({ data: { [key]: Buffer.from(rotated).toString('base64') } }));
    const rotatedAt = Date.now();
    const binding = (await json('get', 'dbi', name, '-n', ns)).status.binding.name;
    await eventually(
      async () => decode((await json('get', 'secret', binding, '-n', ns)).data).password === rotated,
      ROTATION_MS,
      () => 'the binding Secret still has the old password',
    );
    const tookMs = Date.now() - rotatedAt;
    const entries = decode((await json('get', 'secret', binding, '-n', ns)).data);
    expect(entries.uri).toBe((await connection(ns, name)).uri);
    expect(entries.uri).toContain(encodeURIComponent(rotated));
    // eslint-disable-next-line no-console
    console.log(`binding: a password rotation reached the binding Secret in ${tookMs} ms (bound ${ROTATION_MS} ms)`);
  }, 60_000);

  it('a binding Secret deleted by hand comes back; one of that name the apiserver did not make is left alone', async () => {
    const [ns, name] = ['team-a', 'orders-db'];
    const binding = (await json('get', 'dbi', name, '-n', ns)).status.binding.name;
    const uid = (await json('get', 'secret', binding, '-n', ns)).metadata.uid;
    await kubectl('delete', 'secret', binding, '-n', ns);
    await eventually(async () => {
      const now = await secretOrNone(ns, binding);
      return now !== undefined && now.metadata.uid !== uid;
    }, 10_000);

    // a Secret the team made under the name a new instance's binding would take
    const mine = 'fresh-binding';
    await runKubectl(file, system.kubeconfig, `${system.dir}/home-binding`, ['create', 'secret', 'generic', mine, '-n', ns, '--from-literal=mine=yes']);
    const created = await runKubectl(
      file,
      system.kubeconfig,
      `${system.dir}/home-binding`,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        kind: 'DatabaseInstance',
        metadata: { name: 'fresh', namespace: ns },
        spec: { engine: 'redis', replicas: 1 },
      }),
    );
    expect(created.stderr).toBe('');
    await kubectl('wait', '-n', ns, 'dbi/fresh', '--for=jsonpath={.status.phase}=Ready', '--timeout=60s');
    await system.apiserver.bindings.idle();
    const theirs = await json('get', 'secret', mine, '-n', ns);
    expect(decode(theirs.data)).toEqual({ mine: 'yes' });
    expect((await json('get', 'dbi', 'fresh', '-n', ns)).status.binding).toBeUndefined();
  }, 90_000);

  it('is gone after the instance is deleted', async () => {
    const [ns, name] = ['team-a', 'orders-db'];
    const binding = (await json('get', 'dbi', name, '-n', ns)).status.binding.name;
    expect(await secretOrNone(ns, binding)).toBeDefined();
    await kubectl('delete', 'dbi', name, '-n', ns, '--wait=true', '--timeout=60s');
    await eventually(async () => (await secretOrNone(ns, binding)) === undefined, 20_000, () => `${binding} still exists`);
  }, 90_000);
});
