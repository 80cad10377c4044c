import { ConfigReader } from '@backstage/config';
import { describe, expect, it } from '@jest/globals';
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
    [[{ ...good, serviceAccountToken: undefined }], 'databases.clusters[0].serviceAccountToken is required'],
    [[{ ...good, caData: 'not a cert' }], 'databases.clusters[0].caData'],
    [[{ ...good, caFile: '/nonexistent/ca.crt' }], 'databases.clusters[0].caFile'],
  ])('rejects %j naming the key', (clusters, message) => {
    expect(() => read(clusters)).toThrow(message);
  });

  it('rejects a non-positive timeout', () => {
    expect(() => read([good], { requestTimeoutMs: 0 })).toThrow('databases.requestTimeoutMs');
  });
});
