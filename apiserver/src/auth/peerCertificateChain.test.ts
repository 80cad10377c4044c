import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { peerCertificateChain } from './peerCertificateChain';
import { createTestCA } from './testCertificates';

describe('peerCertificateChain', () => {
  /** A TLS socket (or HTTP/2's per-request proxy of one) that counts how often it is asked. */
  const socketPresenting = (raw: Buffer) => {
    const socket = {
      asked: 0,
      getPeerCertificate() {
        socket.asked++;
        return { raw, fingerprint256: 'leaf', issuerCertificate: undefined };
      },
    };
    return socket;
  };

  it('parses a connection\'s chain once, over HTTP/1.1 (one socket) and HTTP/2 (one proxy per stream, one session)', async () => {
    const { cert: certPem } = await createTestCA('peer-test');
    const raw = Buffer.from(certPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');

    const http1 = socketPresenting(raw);
    const a = peerCertificateChain({ socket: http1 } as unknown as IncomingMessage);
    const b = peerCertificateChain({ socket: http1 } as unknown as IncomingMessage);
    expect(a).toHaveLength(1);
    expect(b).toBe(a);
    expect(http1.asked).toBe(1);

    const session = {};
    const proxies = [socketPresenting(raw), socketPresenting(raw), socketPresenting(raw)];
    const chains = proxies.map(p => peerCertificateChain({ socket: p, stream: { session } } as unknown as IncomingMessage));
    expect(new Set(chains).size).toBe(1);
    expect(proxies.reduce((n, p) => n + p.asked, 0)).toBe(1);
    expect(chains[0][0].subject).toContain('peer-test');

    // another connection is asked again
    const other = socketPresenting(raw);
    peerCertificateChain({ socket: other, stream: { session: {} } } as unknown as IncomingMessage);
    expect(other.asked).toBe(1);
  });
});
