import { describe, expect, it } from '@jest/globals';
import { parseRequestInfo } from './requestInfo';

const P = '/apis/wardle.example.com/v1alpha1';

describe('parseRequestInfo', () => {
  // Mirrors contract §3.1's table, plus the core group, watch path form and namespaces themselves.
  it.each([
    [
      'GET',
      `${P}/namespaces/default/flunders`,
      'list',
      'default',
      'flunders',
      '',
      '',
    ],
    ['GET', `${P}/flunders`, 'list', '', 'flunders', '', ''],
    [
      'GET',
      `${P}/namespaces/default/flunders?watch=true`,
      'watch',
      'default',
      'flunders',
      '',
      '',
    ],
    [
      'GET',
      `${P}/namespaces/default/flunders?watch=1&fieldSelector=metadata.name%3Dfoo`,
      'watch',
      'default',
      'flunders',
      '',
      'foo',
    ],
    [
      'GET',
      `${P}/namespaces/default/flunders?watch=&fieldSelector=metadata.name%3D%3Dfoo,metadata.namespace%3Ddefault`,
      'watch',
      'default',
      'flunders',
      '',
      'foo',
    ],
    [
      'GET',
      `${P}/namespaces/default/flunders?watch=false&fieldSelector=metadata.name%21%3Dfoo`,
      'list',
      'default',
      'flunders',
      '',
      '',
    ],
    [
      'GET',
      `${P}/namespaces/default/flunders/foo`,
      'get',
      'default',
      'flunders',
      '',
      'foo',
    ],
    [
      'HEAD',
      `${P}/namespaces/default/flunders/foo`,
      'get',
      'default',
      'flunders',
      '',
      'foo',
    ],
    [
      'POST',
      `${P}/namespaces/default/flunders`,
      'create',
      'default',
      'flunders',
      '',
      '',
    ],
    [
      'PUT',
      `${P}/namespaces/default/flunders/foo/status`,
      'update',
      'default',
      'flunders',
      'status',
      'foo',
    ],
    [
      'PATCH',
      `${P}/namespaces/default/flunders/foo`,
      'patch',
      'default',
      'flunders',
      '',
      'foo',
    ],
    [
      'DELETE',
      `${P}/namespaces/default/flunders/foo`,
      'delete',
      'default',
      'flunders',
      '',
      'foo',
    ],
    [
      'DELETE',
      `${P}/namespaces/default/flunders`,
      'deletecollection',
      'default',
      'flunders',
      '',
      '',
    ],
    ['GET', `${P}/fischers/bar`, 'get', '', 'fischers', '', 'bar'],
    [
      'GET',
      `${P}/watch/namespaces/default/flunders`,
      'watch',
      'default',
      'flunders',
      '',
      '',
    ],
    [
      'GET',
      `${P}/watch/namespaces/default/flunders/foo`,
      'watch',
      'default',
      'flunders',
      '',
      'foo',
    ],
    ['GET', '/api/v1/namespaces', 'list', '', 'namespaces', '', ''],
    [
      'GET',
      '/api/v1/namespaces/team-a',
      'get',
      'team-a',
      'namespaces',
      '',
      'team-a',
    ],
    [
      'PUT',
      '/api/v1/namespaces/team-a/finalize',
      'update',
      'team-a',
      'namespaces',
      'finalize',
      'team-a',
    ],
    [
      'GET',
      '/api/v1/namespaces/team-a/secrets/s',
      'get',
      'team-a',
      'secrets',
      '',
      's',
    ],
    ['GET', '/api/v1/secrets', 'list', '', 'secrets', '', ''],
  ])('%s %s', (method, url, verb, namespace, resource, subresource, name) => {
    const info = parseRequestInfo(method, url);
    expect(info).toMatchObject({
      isResourceRequest: true,
      verb,
      namespace,
      resource,
      subresource,
      name,
    });
  });

  it.each([
    ['GET', `${P}`, 'get'],
    ['GET', '/apis/wardle.example.com', 'get'],
    ['GET', '/apis', 'get'],
    ['GET', '/api', 'get'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/openapi/v3', 'get'],
    ['POST', '/healthz', 'post'],
    ['GET', '/version', 'get'],
  ])('%s %s is a non-resource request', (method, url, verb) => {
    const info = parseRequestInfo(method, url);
    expect(info).toMatchObject({ isResourceRequest: false, verb, path: url });
  });

  it('sets apiGroup and apiVersion (empty group for the core API)', () => {
    expect(parseRequestInfo('GET', `${P}/flunders`)).toMatchObject({
      apiGroup: 'wardle.example.com',
      apiVersion: 'v1alpha1',
    });
    expect(parseRequestInfo('GET', '/api/v1/pods')).toMatchObject({
      apiGroup: '',
      apiVersion: 'v1',
    });
  });
});
