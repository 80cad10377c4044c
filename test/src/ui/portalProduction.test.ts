import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { guestToken, startPortal, type Portal } from './support/startPortal';

/**
 * The portal's backend started as production starts it: built by `backstage-cli package build`,
 * its bundle extracted, `node packages/backend` with NODE_ENV=production (docs/install.md).
 */
describe('the Backstage backend from its production build', () => {
  let portal: Portal;

  beforeAll(async () => {
    portal = await startPortal({ production: true });
  }, 360_000);
  afterAll(async () => {
    await portal?.stop();
  });

  it('serves the app and the databases, and error bodies without stack traces', async () => {
    const token = await guestToken(portal.baseUrl);
    const get = (p: string) => fetch(`${portal.baseUrl}${p}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(portal.logs()).not.toContain('backstage-cli');

    const app = await fetch(`${portal.baseUrl}/`);
    expect(app.status).toBe(200);
    expect(app.headers.get('content-type')).toMatch(/text\/html/);

    const list = await get('/api/databases/instances');
    expect(list.status).toBe(200);
    const body = (await list.json()) as { items: Array<{ instance: { metadata: { namespace: string } } }> };
    // the guest is alice: team-a's instances, through the impersonated cluster reads
    expect(body.items.length).toBeGreaterThan(0);
    expect(new Set(body.items.map(i => i.instance.metadata.namespace))).toEqual(new Set(['team-a']));

    for (const [path, status, name] of [
      ['/api/databases/instances?limit=nope', 400, 'InputError'],
      ['/api/databases/clusters/mars/namespaces/team-a/instances/x', 404, 'NotFoundError'],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(status);
      const error = ((await res.json()) as { error: Record<string, unknown> }).error;
      expect(error.name).toBe(name);
      expect(error).not.toHaveProperty('stack');
    }
  }, 60_000);
});
