import { describe, expect, it } from '@jest/globals';
import type { Authorizer, RequestInfo } from '../../auth/types';
import { checkRestoreAccess } from './restoreAccess';
import type { WriteDeps } from './WriteDeps';

const asked: RequestInfo[] = [];
const authorizer = (allowed: boolean): Authorizer => ({
  authorize: async (_user, info) => {
    asked.push(info);
    return { allowed, ...(allowed ? {} : { reason: 'no RBAC policy matched' }) };
  },
});
const deps = (allowed: boolean) => ({ authorizer: authorizer(allowed) }) as unknown as WriteDeps;
const alice = { username: 'alice', groups: ['team-a'] };

describe('checkRestoreAccess (get on the backup besides create on databaseinstances)', () => {
  it('asks get on the databasebackup as the user', async () => {
    asked.length = 0;
    await checkRestoreAccess(deps(true), alice, 'team-a', 'b1');
    expect(asked).toEqual([expect.objectContaining({ verb: 'get', resource: 'databasebackups', namespace: 'team-a', name: 'b1', apiGroup: 'dbaas.platform.dev' })]);
  });

  it('refuses with 403 naming the backup', async () => {
    await expect(checkRestoreAccess(deps(false), alice, 'team-a', 'b1')).rejects.toMatchObject({
      code: 403,
      message:
        'databasebackups.dbaas.platform.dev "b1" is forbidden: User "alice" cannot get resource "databasebackups" in API group "dbaas.platform.dev" in the namespace "team-a": restoring from a backup needs get on it; no RBAC policy matched',
    });
  });

  it('asks nothing without a backup name, or for system:masters', async () => {
    asked.length = 0;
    await checkRestoreAccess(deps(false), alice, 'team-a', undefined);
    await checkRestoreAccess(deps(false), { username: 'root', groups: ['system:masters'] }, 'team-a', 'b1');
    expect(asked).toEqual([]);
  });
});
