import '../certs/reflectPolyfill';
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import * as x509 from '@peculiar/x509';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';
const MAX_CHAIN_DEPTH = 8;

/** The outcome of {@link verifyClientCertificate}. */
export type ClientCertificateResult =
  | { ok: true; commonName: string; organizations: string[] }
  | { ok: false; reason: string };

/**
 * The peer's certificate chain (leaf first) as sent on the request's TLS connection, or `[]`
 * when the connection is not TLS or the client sent no certificate. Servers must use
 * `requestCert: true, rejectUnauthorized: false` and verify with {@link verifyClientCertificate}.
 */
export function peerCertificateChain(req: IncomingMessage): X509Certificate[] {
  const socket = req.socket as Partial<TLSSocket> | undefined;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return [];
  const peer = socket.getPeerCertificate(true) as
    DetailedPeerCertificate | undefined;
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (
    let c = peer;
    c && c.raw && !seen.has(c.fingerprint256);
    c = c.issuerCertificate
  ) {
    seen.add(c.fingerprint256);
    chain.push(new X509Certificate(c.raw));
    if (chain.length >= MAX_CHAIN_DEPTH) break;
  }
  return chain;
}

function extendedKeyUsages(cert: X509Certificate): string[] | undefined {
  // Node 20 names the EKU list `keyUsage`; later versions add the clearer `extKeyUsage`.
  const c = cert as X509Certificate & { extKeyUsage?: string[] };
  return c.extKeyUsage ?? c.keyUsage ?? undefined;
}

function timeProblem(cert: X509Certificate, now: Date): string | undefined {
  const notBefore = new Date(cert.validFrom);
  const notAfter = new Date(cert.validTo);
  if (now < notBefore)
    return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is before ${notBefore.toISOString()}`;
  if (now > notAfter)
    return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is after ${notAfter.toISOString()}`;
  return undefined;
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

function issuerAmong(
  cert: X509Certificate,
  candidates: X509Certificate[],
  mustBeCa: boolean,
) {
  return candidates.find(
    c => (!mustBeCa || c.ca) && c !== cert && signedBy(cert, c),
  );
}

/** Walks leaf → intermediates → a trusted root; returns the first problem, if any. */
function verifyPath(
  leaf: X509Certificate,
  intermediates: X509Certificate[],
  trustedCAs: X509Certificate[],
  now: Date,
): string | undefined {
  let current = leaf;
  for (let depth = 0; depth <= MAX_CHAIN_DEPTH; depth++) {
    const problem = timeProblem(current, now);
    if (problem) return problem;
    const root = issuerAmong(current, trustedCAs, false);
    if (root) return timeProblem(root, now);
    const next = issuerAmong(current, intermediates, true);
    if (!next) break;
    current = next;
  }
  return 'x509: certificate signed by unknown authority';
}

/**
 * Verifies a client certificate chain (leaf first, intermediates as sent) against trusted CAs
 * the way Go's `x509.Verify` with `ExtKeyUsageClientAuth` does for kube-apiserver: a path to a
 * trusted root, every certificate within its validity window, intermediates must be CAs, and the
 * leaf's Extended Key Usage (when present) must allow clientAuth. User = CN, groups = each O.
 */
export function verifyClientCertificate(
  chain: X509Certificate[],
  trustedCAs: X509Certificate[],
  now: Date = new Date(),
): ClientCertificateResult {
  const leaf = chain[0];
  if (!leaf) return { ok: false, reason: 'no client certificate' };
  const chainProblem = verifyPath(leaf, chain.slice(1), trustedCAs, now);
  if (chainProblem) return { ok: false, reason: chainProblem };
  const ekus = extendedKeyUsages(leaf);
  if (
    ekus &&
    !ekus.includes(CLIENT_AUTH) &&
    !ekus.includes(ANY_EXTENDED_KEY_USAGE)
  ) {
    return {
      ok: false,
      reason: 'x509: certificate specifies an incompatible key usage',
    };
  }
  const subject = new x509.X509Certificate(leaf.raw).subjectName;
  const commonName = subject.getField('CN')[0] ?? '';
  if (!commonName)
    return { ok: false, reason: 'x509: certificate has no common name' };
  return { ok: true, commonName, organizations: subject.getField('O') };
}

/** Parses a PEM bundle (one or more certificates) into Node certificates. */
export function parsePemBundle(pem: string | string[]): X509Certificate[] {
  const text = Array.isArray(pem) ? pem.join('\n') : pem;
  const blocks =
    text.match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    ) ?? [];
  return blocks.map(b => new X509Certificate(b));
}
