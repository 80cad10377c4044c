import https from 'node:https';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSystem, type System } from '@internal/e2e';
import { emulatorCluster } from './__testUtils__/emulatorCluster';
import { eventually } from './__testUtils__/eventually';
import { openEvents } from './__testUtils__/openEvents';
import { startClustersBackend, type ClustersBackend } from './__testUtils__/startClustersBackend';

const MARIADB = { kind: 'MariaDB', namespace: 'team-a', name: 'orders-db' };
const REJECTED = (cluster: string) => `the backend's credentials for cluster ${cluster} were rejected`;
const dryCreate = (name: string, owner = 'group:default/team-a') => ({ name, owner, dryRun: true, spec: { engine: 'redis' } });

/** The status kube-apiserver (the emulator) answers a list with `token`. */
function statusWith(system: System, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL('/apis/dbaas.platform.dev/v1alpha1/databaseinstances', system.emulator.url);
    https
      .get(url, { ca: system.emulator.certs.clusterCa.certPem, headers: { Authorization: `Bearer ${token}` } }, res => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

/**
 * Issue 20, the backend's own credentials: a token file that rotates under a running backend,
 * a token the cluster rejects, an identity that may not impersonate, and a wrong CA. The errors
 * say whose credentials failed: the backend's are a 503, a user's RBAC denial stays their 403.
 */
describe("the backend's credentials for each cluster", () => {
  let system: System;
  let backend: ClustersBackend;
  let dir: string;
  let tokenFile: string;
  let firstToken: string;

  beforeAll(async () => {
    system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    dir = mkdtempSync(path.join(os.tmpdir(), 'databases-token-'));
    tokenFile = path.join(dir, 'token');
    // a bound token of the backend's service account, as the kubelet projects it into the pod
    firstToken = system.emulator.authenticator.issueServiceAccountToken('backstage', 'backend');
    writeFileSync(tokenFile, firstToken);
    const local = emulatorCluster(system);
    const { serviceAccountToken: _, ...withoutToken } = local;
    backend = await startClustersBackend({
      clusters: [
        { ...withoutToken, name: 'rotating', serviceAccountTokenFile: tokenFile },
        { ...local, name: 'badtoken', serviceAccountToken: 'not-a-token-of-this-cluster' },
        // a service account with no role at all: it may not impersonate anyone
        { ...local, name: 'noimpersonate', serviceAccountToken: system.emulator.authenticator.issueServiceAccountToken('backstage', 'nobody') },
        // the front proxy's client CA: a real CA, but not the one that signed kube-apiserver's certificate
        { ...local, name: 'wrongca', caData: system.emulator.certs.clientCa.certPem },
      ],
      requestTimeoutMs: 10_000,
    });
    await eventually(async () => {
      const { items } = (await backend.call('carol', '/clusters')).body;
      return items.find((c: any) => c.name === 'rotating')?.healthy && items.filter((c: any) => c.message).length === 3;
    });
  }, 90_000);

  afterAll(async () => {
    await backend?.stop();
    await system?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('keeps working when the token file is replaced by a new token and the old one is revoked, without a restart', async () => {
    const get = () => backend.call('alice', '/clusters/rotating/namespaces/team-a/instances/orders-db');
    expect((await get()).status).toBe(200);

    const secondToken = system.emulator.authenticator.issueServiceAccountToken('backstage', 'backend');
    writeFileSync(`${tokenFile}.new`, secondToken);
    renameSync(`${tokenFile}.new`, tokenFile); // as the kubelet swaps a projected volume
    system.emulator.authenticator.revokeToken(firstToken);
    expect(await statusWith(system, firstToken)).toBe(401);
    expect(await statusWith(system, secondToken)).toBe(200);

    expect((await get()).status).toBe(200);
    // the shared watch reconnects with the new token too: a change reaches the event stream
    const sse = openEvents(backend.port, 'carol');
    await sse.ready;
    try {
      system.emulator.expireWatches();
      system.emulator.operators.setHealth(MARIADB, 'degraded', 'rotation check');
      await eventually(() =>
        sse.events.some(e => e.event === 'instance' && e.data.cluster === 'rotating' && e.data.instance.metadata.name === MARIADB.name && e.data.transition?.to === 'Degraded'),
      );
      expect((await backend.call('carol', '/clusters')).body.items.find((c: any) => c.name === 'rotating')).toMatchObject({ healthy: true });
    } finally {
      sse.close();
      system.emulator.operators.setHealth(MARIADB, 'ready');
    }
  }, 60_000);

  it("answers 503 naming the backend's credentials when the cluster rejects its token (401), not the user's 403", async () => {
    const write = await backend.call('alice', '/clusters/badtoken/namespaces/team-a/instances', { method: 'POST', body: dryCreate('bad-token-write') });
    expect(write.status).toBe(503);
    expect(write.body.error).toMatchObject({ name: 'ServiceUnavailableError', message: expect.stringContaining(REJECTED('badtoken')) });
    const read = await backend.call('alice', '/clusters/badtoken/namespaces/team-a/instances/orders-db');
    expect(read.status).toBe(503);
    const list = await backend.call('alice', '/instances?cluster=badtoken');
    expect(list.body.errors).toEqual([expect.objectContaining({ cluster: 'badtoken', errorType: 'UNAUTHORIZED', message: expect.stringContaining(REJECTED('badtoken')) })]);
    expect((await backend.call('carol', '/clusters')).body.items.find((c: any) => c.name === 'badtoken').message).toContain(REJECTED('badtoken'));
  });

  it('answers 503 naming the backend when it may not impersonate the user (403 on the impersonation)', async () => {
    const write = await backend.call('alice', '/clusters/noimpersonate/namespaces/team-a/instances', { method: 'POST', body: dryCreate('no-impersonation-write') });
    expect(write.status).toBe(503);
    expect(write.body.error.message).toContain(`${REJECTED('noimpersonate')}: it may not impersonate`);
    const list = await backend.call('alice', '/instances?cluster=noimpersonate');
    expect(list.body.errors).toEqual([expect.objectContaining({ cluster: 'noimpersonate', message: expect.stringContaining(REJECTED('noimpersonate')) })]);
  });

  it("keeps a user's own RBAC denial a 403", async () => {
    // alice has no role in team-b; the Backstage policy lets her create for her own team
    const write = await backend.call('alice', '/clusters/rotating/namespaces/team-b/instances', { method: 'POST', body: dryCreate('not-her-namespace') });
    expect(write.status).toBe(403);
    expect(write.body.error.name).toBe('NotAllowedError');
    expect(write.body.error.message).not.toContain("the backend's credentials");
    const read = await backend.call('alice', '/clusters/rotating/namespaces/team-b/instances/search');
    expect(read.status).toBe(403);
  });

  it('reports a wrong CA as a TLS certificate error, not as an unreachable cluster', async () => {
    const list = await backend.call('alice', '/instances?cluster=wrongca');
    expect(list.body.errors).toEqual([
      expect.objectContaining({ cluster: 'wrongca', errorType: 'TLS', message: expect.stringMatching(/TLS certificate of cluster wrongca was not accepted: .*check its caData or caFile/) }),
    ]);
    const health = (await backend.call('carol', '/clusters')).body.items.find((c: any) => c.name === 'wrongca');
    expect(health.message).toMatch(/TLS certificate of cluster wrongca was not accepted/);
    const read = await backend.call('alice', '/clusters/wrongca/namespaces/team-a/instances/orders-db');
    expect(read.status).toBe(503);
    expect(read.body.error.message).toMatch(/TLS certificate of cluster wrongca was not accepted/);
  });
});
