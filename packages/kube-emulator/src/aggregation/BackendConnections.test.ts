import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { BackendConnections } from './BackendConnections';

describe('BackendConnections', () => {
  // accepts TCP connections and never answers the TLS handshake
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  let port = 0;

  beforeAll(async () => {
    silent = net.createServer(s => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>(r => silent.listen(0, '127.0.0.1', r));
    port = (silent.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise(r => silent.close(r));
  });

  it('gives up on an extension that never completes TLS, and the next request dials again', async () => {
    const connections = new BackendConnections(200);
    const target = { host: '127.0.0.1', port, tls: { servername: 'api.dbaas-system.svc', rejectUnauthorized: false } };
    const started = Date.now();
    await expect(connections.open(target)).rejects.toThrow('net/http: TLS handshake timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    // concurrent callers share the failed attempt's outcome, then each try afresh
    await expect(Promise.all([connections.open(target), connections.open(target)])).rejects.toThrow('TLS handshake timeout');
    connections.closeAll();
    await expect(connections.open(target)).rejects.toThrow('stopping');
  });
});
