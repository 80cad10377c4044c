import { afterEach, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import net from 'node:net';
import { startTestServer, type TestServer } from './__testutils__/testServer';

/**
 * The end of the shutdown grace period cuts every connection, whatever it became: a graceful
 * close waits for each one, and a connection that is neither an HTTP/1.1 connection nor an
 * HTTP/2 session (here: TCP open, no TLS handshake yet) was left, so close() waited on it.
 */
describe('closeAllConnections', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('cuts a connection that never finished its TLS handshake, and close() then completes', async () => {
    t = await startTestServer();
    const socket = net.connect(t.port, '127.0.0.1');
    await once(socket, 'connect');
    const cut = once(socket, 'close');
    let closed = false;
    const closing = t.server.close().then(() => (closed = true));
    t.server.closeAllConnections();
    await cut;
    await closing;
    expect(closed).toBe(true);
    t = undefined;
  });
});
