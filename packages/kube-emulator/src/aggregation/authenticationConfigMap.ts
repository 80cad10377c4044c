import { FRONT_PROXY_CLIENT_CN } from '../certs/createCertificates';
import type { EmulatorCertificates } from '../certs/types';

/**
 * The `data` of `kube-system/extension-apiserver-authentication`, as kube-apiserver's
 * cluster-authentication-trust controller writes it (contract §2.2): the client CA, the
 * front-proxy CA, the allowed front-proxy CN and the identity header names as JSON arrays.
 */
export function authenticationConfigMap(
  certs: Pick<EmulatorCertificates, 'clientCa' | 'frontProxyCa'>,
): Record<string, string> {
  return {
    'client-ca-file': certs.clientCa.certPem,
    'requestheader-client-ca-file': certs.frontProxyCa.certPem,
    'requestheader-allowed-names': JSON.stringify([FRONT_PROXY_CLIENT_CN]),
    'requestheader-username-headers': JSON.stringify(['X-Remote-User']),
    'requestheader-uid-headers': JSON.stringify(['X-Remote-Uid']),
    'requestheader-group-headers': JSON.stringify(['X-Remote-Group']),
    'requestheader-extra-headers-prefix': JSON.stringify(['X-Remote-Extra-']),
  };
}

/** The whole ConfigMap object, ready for `store.create({group:'',version:'v1',plural:'configmaps'}, …)`. */
export function authenticationConfigMapObject(
  certs: Pick<EmulatorCertificates, 'clientCa' | 'frontProxyCa'>,
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'extension-apiserver-authentication',
      namespace: 'kube-system',
    },
    data: authenticationConfigMap(certs),
  };
}
