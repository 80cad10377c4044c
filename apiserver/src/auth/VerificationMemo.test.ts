import { beforeAll, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { createTestCA, createTestLeaf } from './testCertificates';
import { VerificationMemo } from './VerificationMemo';
import { verifyClientCertificate } from './verifyClientCertificate';

const HOUR = 3600_000;

describe('VerificationMemo', () => {
  let chain: X509Certificate[];
  let roots: X509Certificate[];
  let otherRoots: X509Certificate[];
  let calls: number;
  const counting: typeof verifyClientCertificate = (c, r, now) => {
    calls++;
    return verifyClientCertificate(c, r, now);
  };

  beforeAll(async () => {
    const [ca, other] = await Promise.all([createTestCA('front-proxy-ca'), createTestCA('other-ca')]);
    const leaf = await createTestLeaf(ca, { subject: 'CN=front-proxy-client' });
    chain = [new X509Certificate(leaf.cert)];
    roots = [new X509Certificate(ca.cert)];
    otherRoots = [new X509Certificate(other.cert)];
  });

  it('verifies a connection once while nothing can have changed', () => {
    calls = 0;
    const memo = new VerificationMemo(counting);
    const now = Date.now();
    for (let i = 0; i < 5; i++) expect(memo.verifyAt(chain, roots, new Date(now + i * 1000)).ok).toBe(true);
    expect(calls).toBe(1);
  });

  it('verifies again once a certificate has expired since', () => {
    calls = 0;
    const memo = new VerificationMemo(counting);
    expect(memo.verifyAt(chain, roots, new Date()).ok).toBe(true);
    // the leaf and its CA are valid for 24 h
    const later = memo.verifyAt(chain, roots, new Date(Date.now() + 25 * HOUR));
    expect(later).toEqual({ ok: false, reason: expect.stringContaining('expired') });
    expect(calls).toBe(2);
  });

  it('verifies again before a certificate was valid', () => {
    calls = 0;
    const memo = new VerificationMemo(counting);
    expect(memo.verifyAt(chain, roots, new Date()).ok).toBe(true);
    expect(memo.verifyAt(chain, roots, new Date(Date.now() - HOUR)).ok).toBe(false);
    expect(calls).toBe(2);
  });

  it('keeps outcomes apart per set of roots (a reloaded CA bundle is a new array)', () => {
    calls = 0;
    const memo = new VerificationMemo(counting);
    const now = new Date();
    expect(memo.verifyAt(chain, roots, now).ok).toBe(true);
    expect(memo.verifyAt(chain, otherRoots, now)).toEqual({ ok: false, reason: 'certificate signed by unknown authority' });
    expect(memo.verifyAt(chain, [...roots], now).ok).toBe(true);
    expect(memo.verifyAt(chain, otherRoots, now).ok).toBe(false);
    expect(memo.verifyAt(chain, roots, now).ok).toBe(true);
    expect(calls).toBe(3);
  });

  it('keeps outcomes apart per chain (another connection verifies its own)', () => {
    calls = 0;
    const memo = new VerificationMemo(counting);
    const now = new Date();
    memo.verifyAt(chain, roots, now);
    memo.verifyAt([...chain], roots, now);
    expect(calls).toBe(2);
  });

  it('remembers nothing at an instant where a certificate starts or stops being valid', () => {
    calls = 0;
    const memo = new VerificationMemo(counting);
    const notAfter = new Date(Date.parse(chain[0].validTo));
    memo.verifyAt(chain, roots, notAfter);
    memo.verifyAt(chain, roots, notAfter);
    expect(calls).toBe(2);
  });
});
