import request from 'supertest';
import { describe, expect, it, jest } from '@jest/globals';
import { mockCredentials } from '@backstage/backend-test-utils';
import type { ReadyFrame } from '@internal/plugin-databases-common';
import { useSeededBackend } from '../__testUtils__/useSeededBackend';

jest.setTimeout(60_000);

const alice = mockCredentials.user.header('user:default/alice');
const dave = mockCredentials.user.header('user:default/dave');
const BASE = '/api/databases/clusters/local/namespaces/team-a/instances';

/** The answer's newline-delimited frames. */
const frames = (text: string): ReadyFrame[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l));

describe('GET …/instances/:name/ready: waiting until an instance is Ready (emulator + apiserver)', () => {
  const backend = useSeededBackend();
  const ready = (name: string, query = '', as = alice) => request(backend.server).get(`${BASE}/${name}/ready${query}`).set('Authorization', as);
  const create = async (name: string) => {
    const res = await request(backend.server)
      .post(BASE)
      .set('Authorization', alice)
      .send({ name, owner: 'group:default/team-a', spec: { engine: 'mariadb', topology: 'standalone' } });
    expect(res.status).toBe(201);
  };

  it('answers a Ready instance at once, as newline-delimited JSON: the instance, then ready', async () => {
    const res = await ready('orders-db');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const got = frames(res.text);
    expect(got.map(f => f.type)).toEqual(['progress', 'ready']);
    expect(got[1]).toMatchObject({ type: 'ready', instance: { metadata: { name: 'orders-db' }, status: { phase: 'Ready' } } });
  });

  it('follows a new instance phase by phase until it is Ready', async () => {
    await create('ready-new');
    const got = frames((await ready('ready-new', '?timeoutSeconds=30')).text);
    expect(got.at(-1)).toMatchObject({ type: 'ready', instance: { status: { phase: 'Ready' } } });
    const phases = got.filter(f => f.type === 'progress').map(f => (f as any).instance.status?.phase ?? '');
    expect(phases.at(-1)).toBe('Ready');
    expect(phases.slice(0, -1).every(p => p !== 'Ready')).toBe(true);
  });

  it("ends with the operator's reason when the instance fails, and with the phase it is in on timeout", async () => {
    const { operators } = backend.system.emulator;
    operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'ready-failing' }, 'failed', 'the disk is full');
    operators.setHealth({ kind: 'MariaDB', namespace: 'team-a', name: 'ready-slow' }, 'provisioning');
    await create('ready-failing');
    await create('ready-slow');
    const failed = frames((await ready('ready-failing', '?timeoutSeconds=30')).text);
    expect(failed.at(-1)).toEqual({ type: 'error', error: { name: 'Error', message: expect.stringMatching(/^ready-failing is Failed: .*the disk is full/) } });
    const slow = frames((await ready('ready-slow', '?timeoutSeconds=1')).text);
    expect(slow.at(-1)).toEqual({ type: 'error', error: { name: 'Error', message: expect.stringMatching(/^ready-slow was not Ready within 1 s: it is Provisioning/) } });
  });

  it('refuses before the first line: bad query with the field named, no such instance, no read access', async () => {
    for (const query of ['?timeoutSeconds=0', '?timeoutSeconds=soon', '?timeoutSeconds=86401', '?wait=1']) {
      const res = await ready('orders-db', query);
      expect([query, res.status, res.body.error?.name]).toEqual([query, 400, 'InputError']);
      expect(res.body.error.message).toMatch(query === '?wait=1' ? /wait/ : /timeoutSeconds/);
    }
    const missing = await ready('no-such-db');
    expect([missing.status, missing.body.error?.name]).toEqual([404, 'NotFoundError']);
    // dave holds no role in team-a: Kubernetes refuses him the read the wait starts with
    const refused = await ready('orders-db', '', dave);
    expect([refused.status, refused.body.error?.name]).toEqual([403, 'NotAllowedError']);
  });
});
