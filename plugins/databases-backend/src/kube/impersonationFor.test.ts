import { describe, expect, it } from '@jest/globals';
import { impersonationFor } from './impersonationFor';

describe('impersonationFor', () => {
  it.each([
    [
      { userEntityRef: 'user:default/alice', ownershipEntityRefs: ['user:default/alice', 'group:default/team-a'] },
      { userPrefix: '', groupPrefix: '' },
      { user: 'user:default/alice', groups: ['group:default/team-a'] },
    ],
    [
      { userEntityRef: 'user:default/bob', ownershipEntityRefs: ['group:default/b', 'group:default/a', 'group:default/a'] },
      { userPrefix: 'backstage:', groupPrefix: 'backstage:' },
      { user: 'backstage:user:default/bob', groups: ['backstage:group:default/a', 'backstage:group:default/b'] },
    ],
    [
      { userEntityRef: 'user:default/dave', ownershipEntityRefs: ['user:default/dave'] },
      { userPrefix: '', groupPrefix: '' },
      { user: 'user:default/dave', groups: [] },
    ],
  ])('maps %j', (info, options, expected) => {
    expect(impersonationFor(info, options)).toEqual(expected);
  });
});
