import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

/**
 * The client certificate chain the TLS peer presented (leaf first), or [] when the connection
 * is not TLS or the client sent no certificate. The TLS server must use `requestCert: true,
 * rejectUnauthorized: false`: we verify ourselves, against different CAs per purpose.
 */
export function peerCertificateChain(req: IncomingMessage): X509Certificate[] {
  const socket = req.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerCertificate !== 'function') {
    return [];
  }
  let cert: DetailedPeerCertificate | undefined =
    socket.getPeerCertificate(true);
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    try {
      chain.push(new X509Certificate(cert.raw));
    } catch {
      break;
    }
    // Node links the chain through issuerCertificate; a self-signed root points to itself.
    cert = cert.issuerCertificate;
  }
  return chain;
}
