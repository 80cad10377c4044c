import type { BackstageCredentials, PermissionsRegistryService, PermissionsService } from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { describe, expect, it } from '@jest/globals';
import {
  databasesInstanceDeletePermission,
  databasesInstanceReadPermission,
  type PortalInstance,
} from '@internal/plugin-databases-common';
import { InstanceAuthorizer } from './InstanceAuthorizer';

const user = (ref: string, expiresAt: number) =>
  ({ $$type: '@backstage/BackstageCredentials', principal: { type: 'user', userEntityRef: ref }, expiresAt: new Date(expiresAt) }) as BackstageCredentials;
const instance = {} as PortalInstance;

/** A permission service answering `answers[permission]` as it is at call time, counting calls. */
function permissionsAnswering(answers: Record<string, AuthorizeResult.ALLOW | AuthorizeResult.DENY>) {
  const asked: string[] = [];
  const service = {
    async authorizeConditional(requests: Array<{ permission: { name: string } }>) {
      asked.push(requests[0].permission.name);
      return [{ result: answers[requests[0].permission.name] }];
    },
  } as unknown as PermissionsService;
  return { asked, service };
}
const registry = { getPermissionRuleset: () => ({}) } as unknown as PermissionsRegistryService;

describe('InstanceAuthorizer', () => {
  it('reuses the read decision per sign-in for the TTL, and asks again after it', async () => {
    let t = 1_000_000;
    const answers: Record<string, any> = { [databasesInstanceReadPermission.name]: AuthorizeResult.ALLOW };
    const p = permissionsAnswering(answers);
    const authorizer = new InstanceAuthorizer(p.service, registry, { cached: [databasesInstanceReadPermission], ttlMs: 10_000, now: () => t });
    const alice = user('user:default/alice', t + 3_600_000);
    expect(await authorizer.allows(databasesInstanceReadPermission, alice, instance)).toBe(true);
    answers[databasesInstanceReadPermission.name] = AuthorizeResult.DENY;
    t += 5_000;
    expect(await authorizer.allows(databasesInstanceReadPermission, alice, instance)).toBe(true);
    // another user is asked for, not served alice's decision
    expect(await authorizer.allows(databasesInstanceReadPermission, user('user:default/bob', t + 60_000), instance)).toBe(false);
    t += 6_000;
    expect(await authorizer.allows(databasesInstanceReadPermission, alice, instance)).toBe(false);
    expect(p.asked).toHaveLength(3);
  });

  it('always asks for permissions not named cacheable, such as deletes', async () => {
    const answers: Record<string, any> = { [databasesInstanceDeletePermission.name]: AuthorizeResult.ALLOW };
    const p = permissionsAnswering(answers);
    const authorizer = new InstanceAuthorizer(p.service, registry, { cached: [databasesInstanceReadPermission], ttlMs: 10_000 });
    const alice = user('user:default/alice', Date.now() + 60_000);
    expect(await authorizer.allows(databasesInstanceDeletePermission, alice, instance)).toBe(true);
    answers[databasesInstanceDeletePermission.name] = AuthorizeResult.DENY;
    expect(await authorizer.allows(databasesInstanceDeletePermission, alice, instance)).toBe(false);
    expect(p.asked).toEqual([databasesInstanceDeletePermission.name, databasesInstanceDeletePermission.name]);
  });

  it('never reuses a decision past the token\'s expiry', async () => {
    let t = 1_000_000;
    const p = permissionsAnswering({ [databasesInstanceReadPermission.name]: AuthorizeResult.ALLOW });
    const authorizer = new InstanceAuthorizer(p.service, registry, { cached: [databasesInstanceReadPermission], ttlMs: 10_000, now: () => t });
    const short = user('user:default/alice', t + 1_000);
    await authorizer.allows(databasesInstanceReadPermission, short, instance);
    t += 2_000;
    await authorizer.allows(databasesInstanceReadPermission, short, instance);
    expect(p.asked).toHaveLength(2);
  });
});
