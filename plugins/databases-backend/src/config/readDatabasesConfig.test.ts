import { ConfigReader } from '@backstage/config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readDatabasesConfig } from './readDatabasesConfig';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const good = { name: 'local', url: 'https://127.0.0.1:6443', authProvider: 'serviceAccount', serviceAccountToken: 't' };
const read = (clusters: unknown[], extra: object = {}) =>
  readDatabasesConfig(new ConfigReader({ databases: { clusters, ...extra } } as any));

describe('readDatabasesConfig', () => {
  it('reads a valid cluster and decodes base64 CA data', () => {
    const cfg = read([{ ...good, caData: Buffer.from(PEM).toString('base64') }]);
    expect(cfg.clusters[0]).toMatchObject({ name: 'local', caData: PEM, skipTLSVerify: false });
    expect(cfg.impersonation).toEqual({ userPrefix: '', groupPrefix: '' });
  });

  it.each([
    [[{ ...good, name: undefined }], 'databases.clusters[0].name is required'],
    [[{ ...good, name: 'Bad_Name' }], 'databases.clusters[0].name "Bad_Name"'],
    [[good, good], 'databases.clusters[1].name "local" is used twice'],
    [[{ ...good, url: 'nope' }], 'databases.clusters[0].url "nope" is not a URL'],
    [[{ ...good, authProvider: 'google' }], 'databases.clusters[0].authProvider'],
    [[{ ...good, serviceAccountTokenFile: '/etc/hosts' }], 'databases.clusters[0]: give serviceAccountToken or serviceAccountTokenFile, not both'],
    [[{ ...good, serviceAccountToken: undefined, serviceAccountTokenFile: '/nonexistent/token' }], 'databases.clusters[0].serviceAccountTokenFile cannot be read'],
    [[{ ...good, caData: 'not a cert' }], 'databases.clusters[0].caData'],
    [[{ ...good, caFile: '/nonexistent/ca.crt' }], 'databases.clusters[0].caFile'],
  ])('rejects %j naming the key', (clusters, message) => {
    expect(() => read(clusters)).toThrow(message);
  });

  it('rejects a non-positive timeout', () => {
    expect(() => read([good], { requestTimeoutMs: 0 })).toThrow('databases.requestTimeoutMs');
  });

  it('reads the namespace owners of catalog entities as full entity refs, and names a bad one', () => {
    expect(read([good], { catalog: { namespaceOwners: { 'team-a': 'team-a', 'team-b': 'user:default/bob' } } }).catalog.namespaceOwners).toEqual({
      'team-a': 'group:default/team-a',
      'team-b': 'user:default/bob',
    });
    expect(read([good]).catalog.namespaceOwners).toEqual({});
    expect(() => read([good], { catalog: { namespaceOwners: { 'team-a': 'group:default/' } } })).toThrow('databases.catalog.namespaceOwners.team-a');
  });
});

describe('readDatabasesConfig: where the backend gets its credentials', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'databases-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a token file as a path, to be read again when it changes', () => {
    writeFileSync(path.join(dir, 'token'), 'abc\n');
    const cfg = read([{ ...good, serviceAccountToken: undefined, serviceAccountTokenFile: path.join(dir, 'token') }]);
    expect(cfg.clusters[0]).toMatchObject({ serviceAccountTokenFile: path.join(dir, 'token') });
    expect(cfg.clusters[0].serviceAccountToken).toBeUndefined();
  });

  it('refuses an empty token file', () => {
    writeFileSync(path.join(dir, 'token'), '\n');
    expect(() => read([{ ...good, serviceAccountToken: undefined, serviceAccountTokenFile: path.join(dir, 'token') }])).toThrow(
      'databases.clusters[0].serviceAccountTokenFile',
    );
  });

  it("without a token uses the pod's service account: its token, its CA and the in-cluster address", () => {
    writeFileSync(path.join(dir, 'token'), 'pod-token');
    writeFileSync(path.join(dir, 'ca.crt'), PEM);
    const cfg = readDatabasesConfig(
      new ConfigReader({ databases: { clusters: [{ name: 'here', authProvider: 'serviceAccount' }] } }),
      { serviceAccountDir: dir, env: { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' } },
    );
    expect(cfg.clusters[0]).toMatchObject({
      url: 'https://10.96.0.1:443',
      serviceAccountTokenFile: path.join(dir, 'token'),
      caFile: path.join(dir, 'ca.crt'),
    });
  });

  it('outside a pod, says the pod service account it would use is not there', () => {
    const missing = path.join(dir, 'nothing-here');
    expect(() =>
      readDatabasesConfig(new ConfigReader({ databases: { clusters: [{ ...good, serviceAccountToken: undefined }] } }), {
        serviceAccountDir: missing,
      }),
    ).toThrow(`databases.clusters[0]: authProvider serviceAccount without serviceAccountToken or serviceAccountTokenFile uses the pod's service account, but ${missing}/token cannot be read`);
  });

  it('keeps a configured url and CA with the pod service account', () => {
    writeFileSync(path.join(dir, 'token'), 'pod-token');
    const cfg = readDatabasesConfig(
      new ConfigReader({ databases: { clusters: [{ ...good, serviceAccountToken: undefined, caData: PEM }] } }),
      { serviceAccountDir: dir, env: {} },
    );
    expect(cfg.clusters[0]).toMatchObject({ url: good.url, caData: PEM, serviceAccountTokenFile: path.join(dir, 'token') });
    expect(cfg.clusters[0].caFile).toBeUndefined();
  });

  it('waits for one cluster of a multi-cluster answer 2 s by default, never longer than the request timeout', () => {
    expect(read([good]).clusterWaitMs).toBe(2000);
    expect(read([good], { requestTimeoutMs: 500 }).clusterWaitMs).toBe(500);
    expect(() => read([good], { requestTimeoutMs: 500, clusterWaitMs: 600 })).toThrow('databases.clusterWaitMs must not exceed');
  });
});
