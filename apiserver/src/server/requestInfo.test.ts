import { describe, expect, it } from '@jest/globals';
import { getRequestInfo } from './requestInfo';

const P = '/apis/dbaas.platform.dev/v1alpha1';

describe('getRequestInfo', () => {
  // the table of contract §3.1, on our group
  it.each([
    ['GET', `${P}/namespaces/default/databaseinstances`, 'list', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/databaseinstances`, 'list', '', 'databaseinstances', '', ''],
    ['GET', `${P}/namespaces/default/databaseinstances?watch=true`, 'watch', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/namespaces/default/databaseinstances?watch=1&fieldSelector=metadata.name%3Dfoo`, 'watch', 'default', 'databaseinstances', '', 'foo'],
    ['GET', `${P}/namespaces/default/databaseinstances?fieldSelector=metadata.name%3D%3Dfoo,metadata.namespace%3Ddefault`, 'list', 'default', 'databaseinstances', '', 'foo'],
    ['GET', `${P}/namespaces/default/databaseinstances?fieldSelector=metadata.name!%3Dfoo`, 'list', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/namespaces/default/databaseinstances?watch=`, 'watch', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/namespaces/default/databaseinstances?watch=False`, 'list', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/namespaces/default/databaseinstances?watch=0`, 'list', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/namespaces/default/databaseinstances/foo`, 'get', 'default', 'databaseinstances', '', 'foo'],
    ['HEAD', `${P}/namespaces/default/databaseinstances/foo`, 'get', 'default', 'databaseinstances', '', 'foo'],
    ['POST', `${P}/namespaces/default/databaseinstances`, 'create', 'default', 'databaseinstances', '', ''],
    ['PUT', `${P}/namespaces/default/databaseinstances/foo/status`, 'update', 'default', 'databaseinstances', 'status', 'foo'],
    ['PATCH', `${P}/namespaces/default/databaseinstances/foo`, 'patch', 'default', 'databaseinstances', '', 'foo'],
    ['DELETE', `${P}/namespaces/default/databaseinstances/foo`, 'delete', 'default', 'databaseinstances', '', 'foo'],
    ['DELETE', `${P}/namespaces/default/databaseinstances`, 'deletecollection', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/databaseengines/mariadb`, 'get', '', 'databaseengines', '', 'mariadb'],
    ['GET', `${P}/watch/namespaces/default/databaseinstances`, 'watch', 'default', 'databaseinstances', '', ''],
    ['GET', `${P}/watch/namespaces/default/databaseinstances/foo`, 'watch', 'default', 'databaseinstances', '', 'foo'],
    // `namespaces/<ns>` alone is the namespaces resource itself
    ['GET', `${P}/namespaces/default`, 'get', 'default', 'namespaces', '', 'default'],
  ])('%s %s ⇒ %s', (method, url, verb, namespace, resource, subresource, name) => {
    const [path, q = ''] = url.split('?');
    const info = getRequestInfo(method, path, new URLSearchParams(q));
    expect(info).toMatchObject({
      isResourceRequest: true,
      verb,
      apiGroup: 'dbaas.platform.dev',
      apiVersion: 'v1alpha1',
      namespace,
      resource,
      subresource,
      name,
    });
  });

  it.each([
    ['GET', '/apis', 'get'],
    ['GET', '/apis/dbaas.platform.dev', 'get'],
    ['GET', P, 'get'],
    ['GET', '/openapi/v3', 'get'],
    ['GET', '/healthz', 'get'],
    ['GET', '/metrics', 'get'],
    ['POST', '/version', 'post'],
    ['HEAD', '/apis', 'head'],
  ])('%s %s is a non-resource request with verb %s', (method, path, verb) => {
    const info = getRequestInfo(method, path, new URLSearchParams());
    expect(info).toMatchObject({ isResourceRequest: false, path, verb, resource: '' });
  });

  it('keeps raw selectors for list, watch and deletecollection, not for get or the /watch/ path form', () => {
    const q = new URLSearchParams({ labelSelector: 'app=x', fieldSelector: 'metadata.namespace=a' });
    expect(getRequestInfo('GET', `${P}/databaseinstances`, q)).toMatchObject({
      labelSelector: 'app=x',
      fieldSelector: 'metadata.namespace=a',
    });
    expect(getRequestInfo('DELETE', `${P}/namespaces/a/databaseinstances`, q).labelSelector).toBe('app=x');
    expect(getRequestInfo('GET', `${P}/namespaces/a/databaseinstances/x`, q).labelSelector).toBeUndefined();
    expect(getRequestInfo('GET', `${P}/watch/databaseinstances`, q).labelSelector).toBeUndefined();
  });

  it('does not pin names that are not valid path segments', () => {
    const q = new URLSearchParams({ fieldSelector: 'metadata.name=a/b' });
    expect(getRequestInfo('GET', `${P}/databaseinstances`, q).name).toBe('');
  });
});
