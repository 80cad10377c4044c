import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ClusterCredentials } from './ClusterCredentials';

const PEM_A = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
const PEM_B = '-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n';
const base = { name: 'c', url: 'https://127.0.0.1:6443', skipTLSVerify: false, authProvider: 'serviceAccount' as const };

describe('ClusterCredentials', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'databases-credentials-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Replaces `file` as the kubelet updates a projected volume: a new file renamed over it. */
  const replace = (file: string, text: string) => {
    writeFileSync(`${file}.new`, text);
    renameSync(`${file}.new`, file);
  };

  it('uses a token from config as it is', async () => {
    const creds = new ClusterCredentials({ ...base, serviceAccountToken: 'fixed', caData: PEM_A });
    expect(await creds.current()).toEqual({ token: 'fixed', ca: PEM_A });
    expect(creds.fromFiles).toBe(false);
  });

  it('reads a token file and a CA file again after they are replaced, as the pod service account rotates', async () => {
    const token = path.join(dir, 'token');
    const ca = path.join(dir, 'ca.crt');
    writeFileSync(token, 'first\n');
    writeFileSync(ca, PEM_A);
    const creds = new ClusterCredentials({ ...base, serviceAccountTokenFile: token, caFile: ca });
    expect(await creds.current()).toEqual({ token: 'first', ca: PEM_A });
    replace(token, 'second');
    replace(ca, PEM_B);
    expect(await creds.current()).toEqual({ token: 'second', ca: PEM_B });
  });

  it('keeps the last token while the file is briefly missing', async () => {
    const token = path.join(dir, 'token');
    writeFileSync(token, 'first');
    const creds = new ClusterCredentials({ ...base, serviceAccountTokenFile: token });
    await creds.current();
    rmSync(token);
    expect((await creds.current()).token).toBe('first');
  });

  it('refresh() reads again whatever the stat says, and tells whether the token changed', async () => {
    const token = path.join(dir, 'token');
    writeFileSync(token, 'first');
    const creds = new ClusterCredentials({ ...base, serviceAccountTokenFile: token });
    await creds.current();
    expect(await creds.refresh()).toBe(false);
    replace(token, 'other');
    expect(await creds.refresh()).toBe(true);
    expect((await creds.current()).token).toBe('other');
  });

  it('sends no token with authProvider none', async () => {
    expect(await new ClusterCredentials({ ...base, authProvider: 'none' }).current()).toEqual({ token: undefined, ca: undefined });
  });
});
