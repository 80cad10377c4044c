import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeEmulator } from '@internal/kube-emulator';
import { LABEL_BINDING } from '@internal/plugin-databases-common';
import { upstreamCrds } from '../support/upstreamCrds';
import { eventually } from './support/eventually';
import { apiserverFiles, spawnApiserver, type ApiserverProcess } from './support/spawnApiserver';

const SECRETS = { group: '', version: 'v1', plural: 'secrets' };

/**
 * Two apiserver processes keep the same binding Secrets at the same time (the supported
 * deployment runs two replicas): each Secret is written once per change, never back and forth.
 */
describe('binding Secrets kept by two apiserver processes', () => {
  let emulator: KubeEmulator;
  let dir: string;
  let a: ApiserverProcess | undefined;
  let b: ApiserverProcess | undefined;
  let startRv: number;

  const bindingSecrets = () => emulator.store.list(SECRETS).filter(s => s.metadata.labels?.[LABEL_BINDING] === 'true');
  /** Writes of one binding Secret since the processes started: [creates, modifications]. */
  const writesOf = (namespace: string, name: string) => {
    const changes = emulator.store
      .changesSince(startRv)
      .filter(e => e.resource.plural === 'secrets' && e.object.metadata.namespace === namespace && e.object.metadata.name === name);
    return [changes.filter(e => e.type === 'ADDED').length, changes.filter(e => e.type === 'MODIFIED').length];
  };
  const rotate = (namespace: string, secret: string, value: string) => {
    const current = emulator.store.get(SECRETS, namespace, secret)!;
    const key = Object.keys((current as any).data).find(k => /pass/i.test(k))!;
    emulator.store.update(SECRETS, { ...current, data: { ...(current as any).data, [key]: Buffer.from(value).toString('base64') } } as any);
  };
  /** The operator's credentials Secret of one instance: owned by its operator object, with a password. */
  const credentialsOf = (namespace: string, instance: string) => {
    const binding = `${instance}-binding`;
    const found = emulator.store
      .list(SECRETS, namespace)
      .find(s => s.metadata.name !== binding && s.metadata.name.startsWith(instance) && Object.keys((s as any).data ?? {}).some(k => /pass/i.test(k)));
    if (!found) throw new Error(`no credentials Secret of ${namespace}/${instance}`);
    return found.metadata.name;
  };
  const decoded = (namespace: string, name: string, key: string) =>
    Buffer.from((emulator.store.get(SECRETS, namespace, name) as any)?.data?.[key] ?? '', 'base64').toString();

  beforeAll(async () => {
    emulator = await KubeEmulator.start({ seed: true, operatorStepMs: 100, crds: upstreamCrds() });
    emulator.operators.settle();
    dir = await mkdtemp(path.join(tmpdir(), 'dbaas-binding-'));
    const files = await apiserverFiles(emulator, dir);
    startRv = emulator.store.currentRV();
    // both at once: they find no binding Secret and race to make each
    [a, b] = await Promise.all([spawnApiserver(files), spawnApiserver(files)]);
  }, 120_000);

  afterAll(async () => {
    await a?.stop(2000);
    await b?.stop(2000);
    await emulator?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('each binding Secret is created once, and a rotation is written once, by whichever replica comes first', async () => {
    // every instance with credentials gets one (the seed's Pending ones have none yet)
    const withCredentials = () =>
      emulator.store
        .list(SECRETS)
        .filter(s => s.metadata.labels?.[LABEL_BINDING] === 'true')
        .map(s => `${s.metadata.namespace}/${s.metadata.name}`);
    await eventually(() => withCredentials().length >= 10, 30_000, () => `${withCredentials().length} binding Secrets`);
    const orders = ['team-a', 'orders-db-binding'] as const;
    await eventually(() => emulator.store.get(SECRETS, ...orders) !== undefined, 30_000);
    rotate('team-a', credentialsOf('team-a', 'orders-db'), 'rotated-once');
    await eventually(() => decoded(...orders, 'password') === 'rotated-once', 5000, () => 'the rotation did not reach the binding Secret');
    // a second rotation elsewhere, followed to its end: by then both replicas have long handled the first
    const ledger = ['team-a', 'payments-ledger-binding'] as const;
    rotate('team-a', credentialsOf('team-a', 'payments-ledger'), 'rotated-too');
    await eventually(() => decoded(...ledger, 'password') === 'rotated-too', 5000);

    expect(writesOf(...orders)).toEqual([1, 1]);
    const all = bindingSecrets().map(s => [`${s.metadata.namespace}/${s.metadata.name}`, ...writesOf(s.metadata.namespace!, s.metadata.name)]);
    // created once each; changed only by the two rotations
    expect(all.filter(([, creates]) => creates !== 1)).toEqual([]);
    expect(all.filter(([key, , modified]) => modified !== (key === 'team-a/orders-db-binding' || key === 'team-a/payments-ledger-binding' ? 1 : 0))).toEqual([]);
    expect(a!.logs()).not.toMatch(/Writing the binding Secret failed/);
    expect(b!.logs()).not.toMatch(/Writing the binding Secret failed/);
  }, 120_000);
});
