import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

/** Parsed chains by TLS socket (see below). */
const chains = new WeakMap<object, X509Certificate[]>();

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
  // A connection's peer certificate is fixed at its handshake; parsing it again for every
  // request on a kept-alive connection was half a millisecond per request. Over HTTP/2 each
  // request's `socket` is a proxy of its own: the connection is its session.
  const connection = (req as IncomingMessage & { stream?: { session?: object } }).stream?.session ?? socket;
  const cached = chains.get(connection);
  if (cached) {
    return cached;
  }
  const chain = readChain(socket as TLSSocket);
  chains.set(connection, chain);
  return chain;
}


function readChain(socket: TLSSocket): X509Certificate[] {
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
