import type { RequestOptions } from 'node:https';
import type { PemKeyPair } from '../certs/types';
import type { APIServiceSpec } from './apiService';

/**
 * TLS options for a connection to an extension server, as kube-apiserver dials it: verify the
 * serving certificate for `<service>.<namespace>.svc` with `spec.caBundle` (system roots when
 * empty) unless `insecureSkipTLSVerify`, and present the front-proxy client certificate.
 */
export function backendTlsOptions(
  spec: APIServiceSpec,
  serverName: string,
  frontProxy: PemKeyPair,
): RequestOptions {
  const ca = spec.caBundle
    ? Buffer.from(spec.caBundle, 'base64').toString('utf8')
    : undefined;
  return {
    ...(ca ? { ca } : {}),
    servername: serverName,
    rejectUnauthorized: spec.insecureSkipTLSVerify !== true,
    cert: frontProxy.certPem,
    key: frontProxy.keyPem,
    minVersion: 'TLSv1.2',
    agent: false,
  };
}
