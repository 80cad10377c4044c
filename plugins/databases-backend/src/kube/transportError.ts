import { KubeRequestError } from './KubeRequestError';

/**
 * OpenSSL's verification failures as Node names them (`err.code`), plus Node's own name check:
 * the certificate chain of kube-apiserver was not accepted. A wrong `caData`/`caFile` gives
 * UNABLE_TO_VERIFY_LEAF_SIGNATURE or SELF_SIGNED_CERT_IN_CHAIN.
 */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_CHAIN_TOO_LONG',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A request that got no HTTP answer, as a {@link KubeRequestError}: `TLS` when the handshake
 * failed (naming the certificate problem, so a wrong CA is not mistaken for a cluster that is
 * down), else `UNREACHABLE`.
 */
export function transportError(cluster: string, error: NodeJS.ErrnoException): KubeRequestError {
  const code = error.code ?? '';
  if (CERTIFICATE_CODES.has(code)) {
    return new KubeRequestError(
      cluster,
      'TLS',
      `the TLS certificate of cluster ${cluster} was not accepted: ${error.message} (${code}); ` +
        `check its caData or caFile`,
    );
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO') {
    return new KubeRequestError(cluster, 'TLS', `the TLS handshake with cluster ${cluster} failed: ${error.message} (${code})`);
  }
  return new KubeRequestError(cluster, 'UNREACHABLE', `cluster ${cluster} is unreachable: ${error.message}`);
}
