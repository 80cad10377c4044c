import { describe, expect, it } from '@jest/globals';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { NotAllowedError } from '@backstage/errors';
import { DatabasesClient } from './DatabasesClient';

const alice = mockCredentials.user('user:default/alice');
const key = { cluster: 'local', namespace: 'team-a', name: 'orders-db' };

/** A client whose every call gets `answer`; `calls` records what was asked. */
function clientAnswering(answer: () => Response) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const client = new DatabasesClient({
    discovery: mockServices.discovery(),
    auth: mockServices.auth(),
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer();
    }) as typeof fetch,
  });
  return { client, calls };
}

const ndjson = (...lines: unknown[]) =>
  new Response(lines.map(l => `${JSON.stringify(l)}\n`).join(''), { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });

describe('DatabasesClient', () => {
  it("calls the databases plugin's route with a token on behalf of the user", async () => {
    const { client, calls } = clientAnswering(() => new Response(JSON.stringify({ cluster: 'local', items: [] }), { status: 200 }));
    await expect(client.engineSizes(alice, 'local', 'mariadb')).resolves.toBeUndefined();
    expect(calls[0].url).toBe('http://localhost:0/api/databases/clusters/local/engines');
    const authorization = (calls[0].init.headers as Record<string, string>).Authorization;
    expect(authorization).toMatch(/^Bearer /);
    // a plugin request token for the databases plugin, on behalf of alice
    expect(authorization).toContain('user:default/alice');
    expect(authorization).toContain('databases');
  });

  it("throws the route's Backstage error by name, with its message", async () => {
    const body = { error: { name: 'NotAllowedError', message: 'not allowed to create x in team-a owned by group:default/team-b' }, request: {}, response: { statusCode: 403 } };
    const { client } = clientAnswering(() => new Response(JSON.stringify(body), { status: 403, headers: { 'Content-Type': 'application/json' } }));
    const created = client.createInstance(alice, { ...key, name: 'x', owner: 'group:default/team-b', spec: { engine: 'mariadb' } as any }, false);
    await expect(created).rejects.toBeInstanceOf(NotAllowedError);
    await expect(created).rejects.toThrow('not allowed to create x in team-a owned by group:default/team-b');
  });

  it('reports each progress line and resolves with the ready one', async () => {
    const instance = (phase: string) => ({ metadata: { name: 'orders-db' }, status: { phase } });
    const { client, calls } = clientAnswering(() =>
      ndjson({ type: 'progress', instance: instance('Provisioning') }, { type: 'progress', instance: instance('Ready') }, { type: 'ready', instance: instance('Ready') }),
    );
    const seen: string[] = [];
    const ready = await client.waitUntilReady(alice, key, { timeoutMs: 90_500, onProgress: i => seen.push(i.status!.phase!) });
    expect(ready.status?.phase).toBe('Ready');
    expect(seen).toEqual(['Provisioning', 'Ready']);
    expect(calls[0].url).toBe('http://localhost:0/api/databases/clusters/local/namespaces/team-a/instances/orders-db/ready?timeoutSeconds=91');
  });

  it("rejects with the error line's words, and when the answer ends without a verdict", async () => {
    const failed = clientAnswering(() => ndjson({ type: 'error', error: { name: 'Error', message: 'orders-db is Failed: the disk is full' } }));
    await expect(failed.client.waitUntilReady(alice, key, { timeoutMs: 1000 })).rejects.toThrow('orders-db is Failed: the disk is full');
    const cut = clientAnswering(() => ndjson({ type: 'progress', instance: { metadata: { name: 'orders-db' } } }));
    await expect(cut.client.waitUntilReady(alice, key, { timeoutMs: 1000 })).rejects.toThrow(/ended the answer without a verdict/);
  });
});
