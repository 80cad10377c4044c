import http2 from 'node:http2';
import tls from 'node:tls';
// the constants alone: the package's index loads the whole emulator into the measuring client
import { GO_HTTP2_CONNECTION_WINDOW, GO_HTTP2_SETTINGS } from '@internal/kube-emulator/src/aggregation/goHttp2';

/** Where and how to connect (a subset of HttpsClientOptions, to avoid a cycle). */
export interface TlsTarget {
  baseUrl: string;
  ca?: string;
  cert?: string;
  key?: string;
}

/**
 * An HTTP/2 connection as Go's transport opens it (its windows and frame size: Node's defaults
 * would time Node's flow control), over `socket` when given (ALPN already `h2`).
 */
export async function connectLikeGo(target: TlsTarget, socket?: tls.TLSSocket): Promise<http2.ClientHttp2Session> {
  const session = http2.connect(target.baseUrl, {
    ca: target.ca,
    cert: target.cert,
    key: target.key,
    settings: GO_HTTP2_SETTINGS,
    ...(socket ? { createConnection: () => socket } : {}),
  });
  session.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  session.setLocalWindowSize(GO_HTTP2_CONNECTION_WINDOW);
  return session;
}

/**
 * Opens a TLS connection offering `h2` and `http/1.1`, as Go's client does, and says which the
 * server chose: an apiserver that speaks HTTP/2 is called over it, one that does not (the
 * emulator) over HTTP/1.1.
 */
export function negotiate(target: TlsTarget): Promise<{ protocol: string; socket: tls.TLSSocket }> {
  const url = new URL(target.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: url.hostname,
      port: Number(url.port || 443),
      servername: url.hostname === '127.0.0.1' || url.hostname === '::1' ? undefined : url.hostname,
      ca: target.ca,
      cert: target.cert,
      key: target.key,
      ALPNProtocols: ['h2', 'http/1.1'],
    });
    socket.once('secureConnect', () => resolve({ protocol: socket.alpnProtocol || 'http/1.1', socket }));
    socket.once('error', reject);
  });
}
