import { describe, expect, it } from '@jest/globals';
import { ruleAllows } from './ruleAllows';
import type { PolicyRule } from './types';
import { nonResourceRequest, resourceRequest } from './__testUtils__/requests';

const G = 'dbaas.platform.dev';

describe('ruleAllows (RBAC RuleAllows)', () => {
  it.each<[string, PolicyRule, ReturnType<typeof resourceRequest>, boolean]>([
    [
      'exact verb, group, resource',
      { verbs: ['get'], apiGroups: [G], resources: ['databaseinstances'] },
      resourceRequest('get', G, 'databaseinstances'),
      true,
    ],
    [
      'another verb',
      { verbs: ['get'], apiGroups: [G], resources: ['databaseinstances'] },
      resourceRequest('delete', G, 'databaseinstances'),
      false,
    ],
    [
      '"*" verbs',
      { verbs: ['*'], apiGroups: [G], resources: ['databaseinstances'] },
      resourceRequest('deletecollection', G, 'databaseinstances'),
      true,
    ],
    [
      'another group',
      { verbs: ['get'], apiGroups: [G], resources: ['databaseinstances'] },
      resourceRequest('get', 'other.dev', 'databaseinstances'),
      false,
    ],
    [
      '"*" groups',
      { verbs: ['get'], apiGroups: ['*'], resources: ['databaseinstances'] },
      resourceRequest('get', 'other.dev', 'databaseinstances'),
      true,
    ],
    [
      '"" is the core group only',
      { verbs: ['get'], apiGroups: [''], resources: ['secrets'] },
      resourceRequest('get', 'apps', 'secrets'),
      false,
    ],
    [
      'a rule without apiGroups matches no resource',
      { verbs: ['get'], resources: ['secrets'] },
      resourceRequest('get', '', 'secrets'),
      false,
    ],
    [
      '"*" resources include every subresource',
      { verbs: ['get'], apiGroups: [G], resources: ['*'] },
      resourceRequest('get', G, 'databaseinstances', {
        subresource: 'connection',
      }),
      true,
    ],
    [
      'a resource does not include its subresources',
      { verbs: ['get'], apiGroups: [G], resources: ['databaseinstances'] },
      resourceRequest('get', G, 'databaseinstances', {
        name: 'x',
        subresource: 'connection',
      }),
      false,
    ],
    [
      'resource/subresource exactly',
      {
        verbs: ['get'],
        apiGroups: [G],
        resources: ['databaseinstances/connection'],
      },
      resourceRequest('get', G, 'databaseinstances', {
        name: 'x',
        subresource: 'connection',
      }),
      true,
    ],
    [
      'a subresource does not include its resource',
      {
        verbs: ['get'],
        apiGroups: [G],
        resources: ['databaseinstances/connection'],
      },
      resourceRequest('get', G, 'databaseinstances', { name: 'x' }),
      false,
    ],
    [
      '"*/status" is the status of every resource',
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      resourceRequest('update', 'apps', 'deployments', {
        name: 'd',
        subresource: 'status',
      }),
      true,
    ],
    [
      '"*/status" is not another subresource',
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      resourceRequest('update', 'apps', 'deployments', {
        name: 'd',
        subresource: 'scale',
      }),
      false,
    ],
    [
      '"*/status" is not the resource',
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      resourceRequest('update', 'apps', 'deployments', { name: 'd' }),
      false,
    ],
    [
      'resourceNames: a listed name',
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['a', 'b'],
      },
      resourceRequest('get', '', 'configmaps', { name: 'b' }),
      true,
    ],
    [
      'resourceNames: another name',
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['a'],
      },
      resourceRequest('get', '', 'configmaps', { name: 'c' }),
      false,
    ],
    [
      'resourceNames: a request without a name (list, create)',
      {
        verbs: ['list'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['a'],
      },
      resourceRequest('list', '', 'configmaps'),
      false,
    ],
    [
      'resourceNames has no wildcard: "*" is a name',
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['*'],
      },
      resourceRequest('get', '', 'configmaps', { name: 'a' }),
      false,
    ],
    [
      'a non-resource rule matches no resource',
      { verbs: ['*'], nonResourceURLs: ['*'] },
      resourceRequest('get', '', 'secrets'),
      false,
    ],
  ])('%s', (_, rule, request, allowed) => {
    expect(ruleAllows(request, rule)).toBe(allowed);
  });

  it.each<[string, PolicyRule, string, string, boolean]>([
    [
      'exact path',
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      'get',
      '/metrics',
      true,
    ],
    [
      'another path',
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      'get',
      '/metrics/slis',
      false,
    ],
    [
      'trailing "*" is a prefix',
      { verbs: ['get'], nonResourceURLs: ['/debug/*'] },
      'get',
      '/debug/pprof/heap',
      true,
    ],
    [
      'the prefix includes its slash',
      { verbs: ['get'], nonResourceURLs: ['/debug/*'] },
      'get',
      '/debug',
      false,
    ],
    [
      '"*" is every path',
      { verbs: ['get'], nonResourceURLs: ['*'] },
      'get',
      '/anything',
      true,
    ],
    [
      'verb is checked',
      { verbs: ['get'], nonResourceURLs: ['*'] },
      'post',
      '/anything',
      false,
    ],
    [
      'a resource rule matches no path',
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      'get',
      '/apis',
      false,
    ],
  ])('non-resource: %s', (_, rule, verb, path, allowed) => {
    expect(ruleAllows(nonResourceRequest(verb, path), rule)).toBe(allowed);
  });
});
