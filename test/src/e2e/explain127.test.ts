import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { DATABASE_PHASES } from '@internal/plugin-databases-common';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { startSystem, type System } from '../support/startSystem';

(globalThis as any).jest?.setTimeout?.(180_000);

/** GET on the emulator with the admin client certificate from the kubeconfig. */
async function adminGet(system: System, path: string, accept: string) {
  const kc = parse(await readFile(system.kubeconfig, 'utf8'));
  const user = kc.users[0].user;
  const cluster = kc.clusters[0].cluster;
  const url = new URL(path, cluster.server);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    https
      .get(
        url,
        {
          ca: Buffer.from(cluster['certificate-authority-data'], 'base64'),
          cert: Buffer.from(user['client-certificate-data'], 'base64'),
          key: Buffer.from(user['client-key-data'], 'base64'),
          headers: { accept },
        },
        res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      )
      .on('error', reject);
  });
}

describe('kubectl explain through /openapi/v2 (protobuf) and /openapi/v3', () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ seed: false });
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('serves the merged /openapi/v2 as gnostic protobuf when kubectl 1.27 asks for it', async () => {
    const pb = await adminGet(system, '/openapi/v2', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    expect(pb.status).toBe(200);
    expect(pb.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(pb.headers.vary).toBe('Accept');
    // a protobuf Document starts with field 1 (swagger), not with '{'
    expect(pb.body[0]).toBe(0x0a);
    const json = await adminGet(system, '/openapi/v2', 'application/json');
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.body.toString()).definitions).toBeDefined();
    expect(json.headers.etag).toBe(pb.headers.etag);
  });

  describe.each(kubectlBinaries(['1.27']))('$name', ({ file, name }) => {
    const kubectl = (...args: string[]) => runKubectl(file, system.kubeconfig, `${system.dir}/home-${name}`, args);

    it('explain databaseinstance.status.phase prints the lifecycle description', async () => {
      const r = await kubectl('explain', 'databaseinstance.status.phase');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/KIND:\s+DatabaseInstance/);
      expect(r.stdout).toMatch(/VERSION:\s+dbaas\.platform\.dev\/v1alpha1/);
      expect(r.stdout).toMatch(/phase\s+<string>/);
      for (const p of DATABASE_PHASES) expect(r.stdout).toContain(p);
    });

    it('explain databaseinstance.spec lists engine among the fields', async () => {
      const r = await kubectl('explain', 'databaseinstance.spec');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/FIELDS:/);
      expect(r.stdout).toMatch(/engine\s+<string>/);
    });

    it('explain dbi --recursive walks nested fields', async () => {
      const r = await kubectl('explain', 'dbi', '--recursive');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/spec\s+<Object>/);
      expect(r.stdout).toMatch(/storage\s+<Object>/);
    });
  });
});
