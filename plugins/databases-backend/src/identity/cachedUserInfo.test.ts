import type { BackstageCredentials, BackstageUserInfo } from '@backstage/backend-plugin-api';
import { describe, expect, it } from '@jest/globals';
import { cachedUserInfo } from './cachedUserInfo';

const user = (ref: string, expiresAt?: number) =>
  ({ $$type: '@backstage/BackstageCredentials', principal: { type: 'user', userEntityRef: ref }, ...(expiresAt ? { expiresAt: new Date(expiresAt) } : {}) }) as BackstageCredentials;

/** A user info service answering `groups[ref]` as it is at call time, counting calls. */
function source(groups: Record<string, string[]>) {
  const calls: string[] = [];
  let fail = false;
  return {
    calls,
    failNext: () => (fail = true),
    service: {
      async getUserInfo(c: BackstageCredentials): Promise<BackstageUserInfo> {
        const ref = (c.principal as { userEntityRef: string }).userEntityRef;
        calls.push(ref);
        await new Promise(r => setTimeout(r, 5));
        if (fail) {
          fail = false;
          throw new Error('auth backend down');
        }
        return { userEntityRef: ref, ownershipEntityRefs: [ref, ...(groups[ref] ?? [])] };
      },
    },
  };
}

describe('cachedUserInfo', () => {
  it('asks once per sign-in within the TTL, shares a call in flight, and asks again after it', async () => {
    let t = 1_000_000;
    const groups: Record<string, string[]> = { 'user:default/alice': ['group:default/team-a'] };
    const s = source(groups);
    const cached = cachedUserInfo(s.service, { ttlMs: 10_000, now: () => t });
    const alice = user('user:default/alice', t + 3_600_000);
    const [a, b] = await Promise.all([cached.getUserInfo(alice), cached.getUserInfo(alice)]);
    expect(a).toEqual(b);
    expect(s.calls).toHaveLength(1);
    groups['user:default/alice'] = ['group:default/team-b'];
    t += 9_000;
    expect((await cached.getUserInfo(alice)).ownershipEntityRefs).toContain('group:default/team-a');
    t += 2_000; // past the TTL: the new membership is seen
    expect((await cached.getUserInfo(alice)).ownershipEntityRefs).toEqual(['user:default/alice', 'group:default/team-b']);
    expect(s.calls).toHaveLength(2);
  });

  it('keeps users, sign-ins and expired tokens apart', async () => {
    let t = 1_000_000;
    const s = source({});
    const cached = cachedUserInfo(s.service, { ttlMs: 10_000, now: () => t });
    expect((await cached.getUserInfo(user('user:default/alice', t + 60_000))).userEntityRef).toBe('user:default/alice');
    expect((await cached.getUserInfo(user('user:default/bob', t + 60_000))).userEntityRef).toBe('user:default/bob');
    // another token of alice's (another expiry) is another sign-in
    await cached.getUserInfo(user('user:default/alice', t + 120_000));
    expect(s.calls).toEqual(['user:default/alice', 'user:default/bob', 'user:default/alice']);
    // never reused past the token's expiry, even within the TTL
    const short = user('user:default/carol', t + 1_000);
    await cached.getUserInfo(short);
    t += 1_500;
    await cached.getUserInfo(short);
    expect(s.calls.filter(c => c === 'user:default/carol')).toHaveLength(2);
  });

  it('does not keep a failure, and passes other principals through', async () => {
    const s = source({});
    const cached = cachedUserInfo(s.service, { ttlMs: 10_000 });
    const alice = user('user:default/alice', Date.now() + 60_000);
    s.failNext();
    await expect(cached.getUserInfo(alice)).rejects.toThrow('auth backend down');
    expect((await cached.getUserInfo(alice)).userEntityRef).toBe('user:default/alice');
    expect(s.calls).toHaveLength(2);
    const service = { $$type: '@backstage/BackstageCredentials', principal: { type: 'service', subject: 'plugin:catalog' } } as BackstageCredentials;
    await expect(cached.getUserInfo(service)).resolves.toBeDefined();
    await cached.getUserInfo(service);
    expect(s.calls).toHaveLength(4);
  });

  it('holds at most maxEntries sign-ins', async () => {
    const s = source({});
    const cached = cachedUserInfo(s.service, { ttlMs: 60_000, maxEntries: 2 });
    const exp = Date.now() + 60_000;
    for (const n of ['a', 'b', 'c']) await cached.getUserInfo(user(`user:default/${n}`, exp));
    await cached.getUserInfo(user('user:default/a', exp)); // evicted first: asked again
    await cached.getUserInfo(user('user:default/c', exp)); // still kept
    expect(s.calls).toEqual(['user:default/a', 'user:default/b', 'user:default/c', 'user:default/a']);
  });
});
