import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A kube-apiserver address that accepts TCP connections and never answers anything. */
export interface HungServer {
  /** `https://127.0.0.1:<port>`: a TLS client waits for a handshake that never comes. */
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts a {@link HungServer} on loopback. */
export async function startHungServer(): Promise<HungServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer(socket => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    close: async () => {
      sockets.forEach(s => s.destroy());
      await new Promise(resolve => server.close(resolve));
    },
  };
}
