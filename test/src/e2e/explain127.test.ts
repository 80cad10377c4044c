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

  // `plaintext` is kubectl's default (OpenAPI v3 from 1.27 on, after Complete() has fetched v2);
  // `plaintext-openapiv2` renders from the protobuf /openapi/v2 document only.
  describe.each(kubectlBinaries(['1.27']))('$name', ({ file, name }) => {
    const kubectl = (...args: string[]) => runKubectl(file, system.kubeconfig, `${system.dir}/home-${name}`, args);

    it.each(['plaintext', 'plaintext-openapiv2'])(
      'explain databaseinstance.status.phase --output=%s prints the lifecycle description',
      async output => {
        const r = await kubectl('explain', 'databaseinstance.status.phase', `--output=${output}`);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/KIND:\s+DatabaseInstance/);
        expect(r.stdout).toMatch(/VERSION:\s+(dbaas\.platform\.dev\/)?v1alpha1/);
        expect(r.stdout).toMatch(/FIELD:\s+phase\s+<string>/);
        expect(r.stdout).toMatch(/Lifecycle phase/);
        for (const p of DATABASE_PHASES) expect(r.stdout).toContain(p);
      },
    );

    it.each(['plaintext', 'plaintext-openapiv2'])(
      'explain databaseinstance.spec --output=%s lists engine among the fields',
      async output => {
        const r = await kubectl('explain', 'databaseinstance.spec', `--output=${output}`);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/FIELDS:/);
        expect(r.stdout).toMatch(/^\s+engine\s+<string>/m);
        expect(r.stdout).toMatch(/^\s+storage\s+<\w+>/m);
      },
    );

    it('explain dbi --recursive --output=plaintext-openapiv2 walks $refs, arrays and maps', async () => {
      const r = await kubectl('explain', 'dbi', '--recursive', '--output=plaintext-openapiv2');
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^ {3}spec\s+<Object>$/m);
      expect(r.stdout).toMatch(/^ {6}storage\s+<Object>\n {9}size\s+<string>$/m);
      expect(r.stdout).toMatch(/^ {6}endpoints\s+<\[\]Object>$/m);
      expect(r.stdout).toMatch(/^ {9}port\s+<integer>$/m);
      expect(r.stdout).toMatch(/^ {6}labels\s+<map\[string\]string>$/m);
    });

    it('explain of an unknown field names it', async () => {
      const r = await kubectl('explain', 'dbi.spec.nosuchfield', '--output=plaintext-openapiv2');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/nosuchfield/);
    });
  });
});
