import { describe, expect, it } from '@jest/globals';
import type { StoredObject } from '../store/types';
import { apiServiceNameForPath } from './AggregationLayer';
import { authenticationConfigMap } from './authenticationConfigMap';
import { compareKubeVersions, discoveryGroups } from './discoveryGroups';
import {
  encodeQueryLikeGo,
  escapeHeaderKey,
  identityHeaders,
} from './proxyHeaders';
import { resolveServiceTarget } from './resolveServiceTarget';

function obj(spec: Record<string, unknown>, name = 'x'): StoredObject {
  return {
    apiVersion: 'v1',
    kind: 'X',
    metadata: { name, uid: '', resourceVersion: '1', creationTimestamp: '' },
    spec,
  };
}

describe('encodeQueryLikeGo', () => {
  it.each([
    ['', ''],
    ['?', ''],
    ['?b=2&a=1', '?a=1&b=2'],
    ['?a=2&b=1&a=1', '?a=2&a=1&b=1'],
    [
      '?labelSelector=app%3Dx%2Cenv+in+(a)',
      '?labelSelector=app%3Dx%2Cenv+in+%28a%29',
    ],
    [
      '?fieldSelector=metadata.name%3D%3Dfoo&watch',
      '?fieldSelector=metadata.name%3D%3Dfoo&watch=',
    ],
    ["?q=!'*~._-", '?q=%21%27%2A~._-'],
  ])('%s → %s', (input, expected) => {
    expect(encodeQueryLikeGo(input)).toBe(expected);
  });
});

describe('escapeHeaderKey', () => {
  it.each([
    ['scopes', 'scopes'],
    ['acme.com/project', 'acme.com%2Fproject'],
    ['100%', '100%25'],
    ['a b', 'a%20b'],
    ['é', '%C3%A9'],
  ])('%s → %s', (key, expected) => {
    expect(escapeHeaderKey(key)).toBe(expected);
  });

  it('builds one header line per group and extra value', () => {
    expect(
      identityHeaders({
        username: 'u',
        uid: '1',
        groups: ['a,b', 'c'],
        extra: { 'x/y': ['1', '2'] },
      }),
    ).toEqual({
      'x-remote-user': 'u',
      'x-remote-uid': '1',
      'x-remote-group': ['a,b', 'c'],
      'x-remote-extra-x%2Fy': ['1', '2'],
    });
  });
});

describe('compareKubeVersions and discoveryGroups', () => {
  it('orders versions as kube does', () => {
    const versions = [
      'v1alpha1',
      'foo',
      'v2',
      'v1beta1',
      'v11alpha2',
      'v10',
      'v1',
      'v12beta3',
      'bar',
    ];
    expect([...versions].sort(compareKubeVersions)).toEqual([
      'v10',
      'v2',
      'v1',
      'v12beta3',
      'v1beta1',
      'v11alpha2',
      'v1alpha1',
      'bar',
      'foo',
    ]);
  });

  it('orders groups by priority then name, versions by priority then kube order', () => {
    const groups = discoveryGroups([
      obj({
        group: 'b.dev',
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
      }),
      obj({
        group: 'a.dev',
        version: 'v1alpha1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
      }),
      obj({
        group: 'a.dev',
        version: 'v1beta1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
      }),
      obj({
        group: 'a.dev',
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 5,
      }),
      obj({
        group: 'z.dev',
        version: 'v1',
        groupPriorityMinimum: 2000,
        versionPriority: 1,
      }),
    ]);
    expect(groups).toEqual([
      { name: 'z.dev', versions: ['v1'], preferredVersion: 'v1' },
      {
        name: 'a.dev',
        versions: ['v1beta1', 'v1alpha1', 'v1'],
        preferredVersion: 'v1beta1',
      },
      { name: 'b.dev', versions: ['v1'], preferredVersion: 'v1' },
    ]);
  });
});

describe('resolveServiceTarget', () => {
  const spec = {
    group: 'g',
    version: 'v1',
    service: { namespace: 'ns', name: 'api', port: 443 },
  };
  it.each<[string, Record<string, unknown>, unknown]>([
    [
      'ExternalName uses the APIService port',
      { type: 'ExternalName', externalName: 'localhost' },
      { ok: true, host: 'localhost', port: 443, serverName: 'api.ns.svc' },
    ],
    [
      'ClusterIP goes to the matching port’s targetPort on loopback',
      {
        clusterIP: '10.0.0.1',
        ports: [{ name: 'https', port: 443, targetPort: 40123 }],
      },
      { ok: true, host: '127.0.0.1', port: 40123, serverName: 'api.ns.svc' },
    ],
    [
      'a loopback clusterIP is used as is',
      { clusterIP: '127.0.0.2', ports: [{ port: 443 }] },
      { ok: true, host: '127.0.0.2', port: 443, serverName: 'api.ns.svc' },
    ],
    [
      'no matching port',
      { ports: [{ port: 8443, targetPort: 8443 }] },
      {
        ok: false,
        reason: 'ServicePortError',
        message: 'service/api in "ns" is not listening on port 443',
      },
    ],
    [
      'headless',
      { clusterIP: 'None', ports: [{ port: 443 }] },
      expect.objectContaining({ ok: false, reason: 'ServiceResolveError' }),
    ],
    [
      'named targetPort',
      { ports: [{ port: 443, targetPort: 'https' }] },
      expect.objectContaining({ ok: false, reason: 'ServiceResolveError' }),
    ],
  ])('%s', (_, serviceSpec, expected) => {
    expect(resolveServiceTarget(spec, obj(serviceSpec))).toEqual(expected);
  });
});

describe('apiServiceNameForPath', () => {
  it.each([
    ['/apis/dbaas.platform.dev/v1alpha1', 'v1alpha1.dbaas.platform.dev'],
    [
      '/apis/dbaas.platform.dev/v1alpha1/namespaces/a/databaseinstances',
      'v1alpha1.dbaas.platform.dev',
    ],
    [
      '/openapi/v3/apis/dbaas.platform.dev/v1alpha1',
      'v1alpha1.dbaas.platform.dev',
    ],
    ['/apis/dbaas.platform.dev', undefined],
    ['/api/v1/pods', undefined],
    ['/openapi/v3', undefined],
  ])('%s', (path, expected) => {
    expect(apiServiceNameForPath(path)).toBe(expected);
  });
});

describe('authenticationConfigMap', () => {
  it('has the keys an extension apiserver reads, header lists as JSON arrays', () => {
    const data = authenticationConfigMap({
      clientCa: { certPem: 'CLIENT', keyPem: '' },
      frontProxyCa: { certPem: 'FRONT', keyPem: '' },
    });
    expect(data['client-ca-file']).toBe('CLIENT');
    expect(data['requestheader-client-ca-file']).toBe('FRONT');
    expect(JSON.parse(data['requestheader-allowed-names'])).toEqual([
      'front-proxy-client',
    ]);
    expect(JSON.parse(data['requestheader-username-headers'])).toEqual([
      'X-Remote-User',
    ]);
    expect(JSON.parse(data['requestheader-uid-headers'])).toEqual([
      'X-Remote-Uid',
    ]);
    expect(JSON.parse(data['requestheader-group-headers'])).toEqual([
      'X-Remote-Group',
    ]);
    expect(JSON.parse(data['requestheader-extra-headers-prefix'])).toEqual([
      'X-Remote-Extra-',
    ]);
  });
});
