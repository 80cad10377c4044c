import type { X509Certificate } from 'node:crypto';

/** OID of Extended Key Usage `clientAuth`. */
const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
/** OID of `anyExtendedKeyUsage`. */
const EKU_ANY = '2.5.29.37.0';
const MAX_CHAIN_DEPTH = 8;

/** Outcome of verifying a presented client certificate chain against a set of trusted roots. */
export type CertificateVerification =
  { ok: true; leaf: X509Certificate } | { ok: false; reason: string };

function extendedKeyUsages(cert: X509Certificate): string[] | undefined {
  // Node 22 renamed keyUsage (which holds the EKU OIDs) to extKeyUsage; accept both.
  const eku = (cert as any).extKeyUsage ?? cert.keyUsage;
  return Array.isArray(eku) ? eku : undefined;
}

function allowsClientAuth(cert: X509Certificate): boolean {
  const eku = extendedKeyUsages(cert);
  // Like Go's x509.Verify: a certificate without the EKU extension is valid for any usage.
  return !eku || eku.includes(EKU_CLIENT_AUTH) || eku.includes(EKU_ANY);
}

function validAt(cert: X509Certificate, now: Date): boolean {
  return new Date(cert.validFrom) <= now && now <= new Date(cert.validTo);
}

function issued(issuer: X509Certificate, subject: X509Certificate): boolean {
  try {
    return subject.checkIssued(issuer) && subject.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Verifies `chain` (leaf first, then whatever intermediates the peer sent) up to one of
 * `roots`, the way Go's `x509.Verify` with `KeyUsages: [ClientAuth]` does for kube-apiserver:
 * every signature, validity dates of every certificate used, CA flag on intermediates, and
 * clientAuth on the leaf and intermediates. Pure: `now` is passed in.
 */
export function verifyClientCertificate(
  chain: X509Certificate[],
  roots: X509Certificate[],
  now: Date,
): CertificateVerification {
  const leaf = chain[0];
  if (!leaf) {
    return { ok: false, reason: 'no client certificate' };
  }
  if (roots.length === 0) {
    return { ok: false, reason: 'no trusted CA configured' };
  }
  if (!validAt(leaf, now)) {
    return {
      ok: false,
      reason: `certificate has expired or is not yet valid (subject ${leaf.subject.replace(/\n/g, ', ')})`,
    };
  }
  if (!allowsClientAuth(leaf)) {
    return {
      ok: false,
      reason: 'certificate specifies an incompatible key usage (no clientAuth)',
    };
  }
  let current = leaf;
  const used = new Set<X509Certificate>([leaf]);
  for (let depth = 0; depth < MAX_CHAIN_DEPTH; depth++) {
    const subject = current;
    const root = roots.find(r => issued(r, subject));
    if (root) {
      if (!validAt(root, now)) {
        return {
          ok: false,
          reason: 'trusted CA certificate has expired or is not yet valid',
        };
      }
      return { ok: true, leaf };
    }
    const intermediate = chain.find(
      c =>
        !used.has(c) &&
        c.ca &&
        issued(c, subject) &&
        validAt(c, now) &&
        allowsClientAuth(c),
    );
    if (!intermediate) {
      return { ok: false, reason: 'certificate signed by unknown authority' };
    }
    used.add(intermediate);
    current = intermediate;
  }
  return { ok: false, reason: 'certificate chain too long' };
}

/** Values of one attribute of a Node subject string (`CN=a\nO=b\nO=c`). */
export function subjectAttribute(subject: string, attribute: string): string[] {
  return subject
    .split('\n')
    .map(line => {
      const i = line.indexOf('=');
      return i < 0
        ? undefined
        : { key: line.slice(0, i), value: line.slice(i + 1) };
    })
    .filter(
      (kv): kv is { key: string; value: string } =>
        !!kv && kv.key === attribute,
    )
    .map(kv => kv.value);
}
