import type { X509Certificate } from 'node:crypto';
import { verifyClientCertificate, type CertificateVerification } from './verifyClientCertificate';

interface Entry {
  outcome: CertificateVerification;
  /** The outcome holds for every time strictly between these (ms since the epoch). */
  after: number;
  before: number;
}

/**
 * {@link verifyClientCertificate}, remembered per presented chain and set of trusted roots. A
 * connection's chain is one array for all its requests (`peerCertificateChain`), and the roots
 * are one array until the CA bundle is reloaded, so both serve as keys. Time enters the outcome
 * only through comparisons with the certificates' notBefore/notAfter, so an outcome is reused
 * while `now` stays strictly between the same two of those instants, and computed again after.
 * Verifying the signatures on every request of a kept-alive connection cost some 0.2 ms each.
 */
export class VerificationMemo {
  private readonly byChain = new WeakMap<readonly X509Certificate[], WeakMap<readonly X509Certificate[], Entry>>();

  constructor(private readonly verify: typeof verifyClientCertificate = verifyClientCertificate) {}

  verifyAt(chain: X509Certificate[], roots: X509Certificate[], now: Date): CertificateVerification {
    const t = now.getTime();
    let byRoots = this.byChain.get(chain);
    const hit = byRoots?.get(roots);
    if (hit && hit.after < t && t < hit.before) return hit.outcome;
    const outcome = this.verify(chain, roots, now);
    const { after, before } = stableAround(t, [...chain, ...roots]);
    if (after < t && t < before) {
      if (!byRoots) {
        byRoots = new WeakMap();
        this.byChain.set(chain, byRoots);
      }
      byRoots.set(roots, { outcome, after, before });
    }
    return outcome;
  }
}

/** The nearest validity boundaries of `certs` before and after `t` (t itself when it is one). */
function stableAround(t: number, certs: X509Certificate[]): { after: number; before: number } {
  let after = -Infinity;
  let before = Infinity;
  for (const cert of certs) {
    for (const boundary of [Date.parse(cert.validFrom), Date.parse(cert.validTo)]) {
      // an unreadable date: nothing is remembered
      if (Number.isNaN(boundary) || boundary === t) return { after: t, before: t };
      if (boundary < t && boundary > after) after = boundary;
      if (boundary > t && boundary < before) before = boundary;
    }
  }
  return { after, before };
}
