import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import https from 'node:https';
import { runKubectl, kubectlBinaries } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

interface Answer {
  status: number;
  body: any;
}

/** One request straight to the aggregated apiserver (not through the emulator's proxy). */
function direct(
  system: System,
  path: string,
  opts: { headers?: Record<string, string | string[]>; cert?: { certPem: string; keyPem: string } } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: system.apiserver.port,
        path,
        method: 'GET',
        ca: system.emulator.certs.clusterCa.certPem,
        servername: 'api.dbaas-system.svc',
        headers: opts.headers,
        ...(opts.cert ? { cert: opts.cert.certPem, key: opts.cert.keyPem } : {}),
      },
      res => {
        let data = '';
        res.on('data', d => (data += d));
        res.on('end', () => {
          let body: any = data;
          try {
            body = JSON.parse(data);
          } catch {
            // plain text
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const LIST_TEAM_B = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-b/databaseinstances';

describe('who may read: authentication and authorization of the aggregated apiserver', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ seed: true });
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('identity headers from a client without the front-proxy certificate get 401', async () => {
    const r = await direct(system, LIST_TEAM_B, {
      headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('identity headers with a user client certificate (not the front proxy) get 401', async () => {
    const r = await direct(system, LIST_TEAM_B, {
      headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
      cert: system.emulator.certs.admin,
    });
    expect(r.status).toBe(401);
  });

  it('the real front proxy certificate with X-Remote-* is trusted, and a SAR denial is a 403 in kube-apiserver\'s format', async () => {
    const allowed = await direct(system, '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances', {
      headers: { 'X-Remote-User': 'alice', 'X-Remote-Group': ['team-a', 'system:authenticated'] },
      cert: system.emulator.certs.frontProxyClient,
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.items.length).toBeGreaterThan(0);
    expect(allowed.body.items.every((i: any) => i.metadata.namespace === 'team-a')).toBe(true);

    const denied = await direct(system, LIST_TEAM_B, {
      headers: { 'X-Remote-User': 'alice', 'X-Remote-Group': ['team-a', 'system:authenticated'] },
      cert: system.emulator.certs.frontProxyClient,
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      details: { group: 'dbaas.platform.dev', kind: 'databaseinstances' },
    });
    expect(denied.body.message).toMatch(
      /^databaseinstances\.dbaas\.platform\.dev is forbidden: User "alice" cannot list resource "databaseinstances" in API group "dbaas\.platform\.dev" in the namespace "team-b"/,
    );
  });

  it('kubectl as alice (token) sees team-a and is refused team-b', async () => {
    const [kubectl] = kubectlBinaries([]);
    const kubeconfig = await system.kubeconfigFor('alice-token');
    const home = `${system.dir}/home-alice`;
    const ok = await runKubectl(kubectl.file, kubeconfig, home, ['get', 'dbi', '-n', 'team-a', '-o', 'name']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('databaseinstance.dbaas.platform.dev/orders-db');
    const no = await runKubectl(kubectl.file, kubeconfig, home, ['get', 'dbi', '-n', 'team-b']);
    expect(no.code).not.toBe(0);
    expect(no.stderr).toContain(
      'Error from server (Forbidden): databaseinstances.dbaas.platform.dev is forbidden: User "alice" cannot list resource "databaseinstances" in API group "dbaas.platform.dev" in the namespace "team-b"',
    );
  });

  it('health endpoints need no credentials; resources do', async () => {
    const live = await direct(system, '/livez');
    expect(live).toEqual({ status: 200, body: 'ok' });
    const anonymous = await direct(system, LIST_TEAM_B);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.message).toContain('User "system:anonymous" cannot list resource "databaseinstances"');
  });
});
