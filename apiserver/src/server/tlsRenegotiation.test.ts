import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import tls from 'node:tls';
import { startTestServer, type TestServer } from './__testutils__/testServer';

/**
 * A connection's client certificate is read and verified once for its life (peerCertificateChain,
 * VerificationMemo), so the server must not let a connection renegotiate TLS and present another.
 * TLS 1.3 has no renegotiation; a client that asks for it over TLS 1.2 is refused, as Go's TLS
 * server (kube-apiserver's) refuses every renegotiation.
 */
describe('TLS renegotiation', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is refused', async () => {
    const socket = tls.connect({ host: '127.0.0.1', port: t.port, ca: t.ca, maxVersion: 'TLSv1.2', ALPNProtocols: ['http/1.1'] });
    const errors: string[] = [];
    socket.on('error', e => errors.push((e as NodeJS.ErrnoException).code ?? e.message));
    await once(socket, 'secureConnect');
    const closed = new Promise(resolve => socket.once('close', resolve));
    const outcome = await new Promise<string>(resolve => {
      const accepted = socket.renegotiate({ rejectUnauthorized: true }, err => resolve(err ? 'refused' : 'renegotiated'));
      if (!accepted) resolve('refused before sending');
      socket.once('close', () => resolve('connection closed'));
    });
    expect(outcome).not.toBe('renegotiated');
    expect(errors).toContain('ERR_SSL_NO_RENEGOTIATION');
    // and the server closes the connection: it used to try to answer an HTTP 400 over the failed
    // TLS session, which never completed, so the socket stayed open (and server.close waited)
    await closed;
  });
});
