import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { adapters } from '@internal/databases-apiserver';
import { startSystem, type System } from '../support/startSystem';
import { kubeHttp } from './support/kubeHttp';

const TEAM_A = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances';
const SECRETS = { group: '', version: 'v1', plural: 'secrets' };

const instance = (name: string, engine: string) => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name, namespace: 'team-a' },
  spec: { engine },
});

describe('concurrent writes through the aggregation layer', () => {
  let system: System;
  let kc: KubeConfig;

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    kc = new KubeConfig();
    kc.loadFromString(system.emulator.kubeconfig('admin'));
  }, 60_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('50 clients create one name at once, over every engine: 1 created, 49 × 409 AlreadyExists, no orphaned operator object or Secret', async () => {
    const engines = adapters.map(a => a.engine);
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => kubeHttp(kc, 'POST', TEAM_A, { body: instance('race', engines[i % engines.length]) })),
    );
    const codes = results.map(r => r.status);
    // eslint-disable-next-line no-console
    console.log(`50 concurrent creates of one name: ${codes.filter(c => c === 201).length} × 201, ${codes.filter(c => c === 409).length} × 409 in ${Date.now() - started} ms`);
    expect(codes.filter(c => c === 201).length).toBe(1);
    expect(codes.filter(c => c === 409).length).toBe(49);
    for (const r of results.filter(x => x.status === 409)) {
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'AlreadyExists', code: 409, details: { name: 'race' } });
    }
    const winner = results.find(r => r.status === 201)!.body;

    // every kind of every operator, in that namespace: exactly one object holds the name
    const holders = adapters.flatMap(a =>
      a.kinds.flatMap(k => system.emulator.store.list(k, 'team-a').filter(o => o.metadata.name === 'race').map(() => `${k.kind}.${k.group}`)),
    );
    expect(holders).toEqual([`${winner.status.source.kind}.${winner.status.source.apiVersion.split('/')[0]}`]);
    const source = adapters
      .flatMap(a => a.kinds)
      .map(k => system.emulator.store.get(k, 'team-a', 'race'))
      .find(Boolean)!;
    expect(source.metadata.uid).toBe(winner.metadata.uid);
    // Secrets made for the name belong to the winner (the losers never wrote any)
    const secrets = system.emulator.store.list(SECRETS, 'team-a').filter(s => s.metadata.name.startsWith('race'));
    for (const secret of secrets) {
      expect((secret.metadata as any).ownerReferences?.map((o: any) => o.uid)).toEqual([source.metadata.uid]);
    }
    const served = await kubeHttp(kc, 'GET', `${TEAM_A}/race`);
    expect([served.status, served.body.metadata.uid]).toEqual([200, winner.metadata.uid]);
  }, 45_000);

  it('an update with a stale resourceVersion is a 409 Conflict and changes nothing', async () => {
    const first = (await kubeHttp(kc, 'GET', `${TEAM_A}/orders-cache`)).body;
    const a = structuredClone(first);
    a.metadata.annotations = { ...a.metadata.annotations, 'example.com/by': 'a' };
    const accepted = await kubeHttp(kc, 'PUT', `${TEAM_A}/orders-cache`, { body: a });
    expect(accepted.status).toBe(200);
    const b = structuredClone(first); // still the resourceVersion from before a's update
    b.metadata.annotations = { ...b.metadata.annotations, 'example.com/by': 'b' };
    const refused = await kubeHttp(kc, 'PUT', `${TEAM_A}/orders-cache`, { body: b });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Conflict', message: expect.stringMatching(/the object has been modified/) });
    const now = (await kubeHttp(kc, 'GET', `${TEAM_A}/orders-cache`)).body;
    expect(now.metadata.annotations['example.com/by']).toBe('a');
  }, 30_000);

  it('interleaved read-modify-write loops of 8 clients: conflicts happen, and the result holds every accepted update', async () => {
    const clients = 8;
    const rounds = 4;
    let conflicts = 0;
    let accepted = 0;
    const other: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let round = 1; round <= rounds; round++) {
          for (;;) {
            const current = (await kubeHttp(kc, 'GET', `${TEAM_A}/payments-db`)).body;
            // a PUT replaces every annotation: a stale one that got through would drop the others'
            current.metadata.annotations = { ...current.metadata.annotations, [`example.com/client-${c}`]: String(round) };
            const res = await kubeHttp(kc, 'PUT', `${TEAM_A}/payments-db`, { body: current });
            if (res.status === 200) {
              accepted++;
              break;
            }
            if (res.status === 409) conflicts++;
            else other.push(res.status);
            if (other.length) return;
          }
        }
      }),
    );
    // eslint-disable-next-line no-console
    console.log(`read-modify-write: ${clients} clients × ${rounds} updates accepted, ${conflicts} × 409 on the way`);
    expect(other).toEqual([]);
    expect(accepted).toBe(clients * rounds);
    expect(conflicts).toBeGreaterThan(0);
    const final = (await kubeHttp(kc, 'GET', `${TEAM_A}/payments-db`)).body;
    for (let c = 0; c < clients; c++) {
      expect(final.metadata.annotations[`example.com/client-${c}`]).toBe(String(rounds));
    }
  }, 45_000);
});
