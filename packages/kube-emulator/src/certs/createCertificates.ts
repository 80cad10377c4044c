import {
  createCertificateAuthority,
  issueClientCert,
  issueServingCert,
} from './issueCertificate';
import type { EmulatorCertificates, PemKeyPair } from './types';

/** SANs of the emulator's serving certificate. */
export const EMULATOR_SERVING_DNS_NAMES = [
  'localhost',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];
/** IP SANs of the emulator's serving certificate. */
export const EMULATOR_SERVING_IPS = ['127.0.0.1', '::1'];
/** CN of the front-proxy client certificate, listed in `requestheader-allowed-names`. */
export const FRONT_PROXY_CLIENT_CN = 'front-proxy-client';

/** The emulator's certificates plus a shortcut to issue more user certificates from the client CA. */
export interface EmulatorCertificateSet extends EmulatorCertificates {
  /** Issues a client certificate signed by the client CA (user = CN, groups = O). */
  issueClientCert(
    commonName: string,
    organizations?: string[],
  ): Promise<PemKeyPair>;
}

/**
 * Creates a fresh, throw-away PKI for one emulator run: cluster CA + serving certificate,
 * client CA + `admin` (system:masters) certificate, and a separate front-proxy CA + client
 * certificate. EC P-256 keys make this take a few milliseconds.
 */
export async function createCertificates(): Promise<EmulatorCertificateSet> {
  const [clusterCa, clientCa, frontProxyCa] = await Promise.all([
    createCertificateAuthority('kube-emulator-ca'),
    createCertificateAuthority('kube-emulator-client-ca'),
    createCertificateAuthority('kube-emulator-front-proxy-ca'),
  ]);
  const [serving, admin, frontProxyClient] = await Promise.all([
    issueServingCert(
      clusterCa,
      EMULATOR_SERVING_DNS_NAMES,
      EMULATOR_SERVING_IPS,
    ),
    issueClientCert(clientCa, 'admin', ['system:masters']),
    issueClientCert(frontProxyCa, FRONT_PROXY_CLIENT_CN),
  ]);
  return {
    clusterCa,
    serving,
    clientCa,
    admin,
    frontProxyCa,
    frontProxyClient,
    issueClientCert: (commonName, organizations = []) =>
      issueClientCert(clientCa, commonName, organizations),
  };
}
