import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './clientError';
import type { DatabasesApp } from './createApp';

/** Largest request head accepted, as Go's `http.DefaultMaxHeaderBytes`. */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** Options of {@link startServer}. */
export interface StartServerOptions {
  app: DatabasesApp;
  tls: {
    key: string | Buffer;
    cert: string | Buffer;
    /** Trust anchors offered to clients for their certificates (request-header CA + client CA). */
    clientCa?: string | Buffer;
  };
  port: number;
  host?: string;
}

/** A listening server. */
export interface RunningServer {
  server: https.Server;
  port: number;
  /** Stops accepting connections, ends every watch cleanly, waits for in-flight requests. */
  close(): Promise<void>;
}

/**
 * Serves the app over HTTPS only. Client certificates are requested but not enforced by TLS: the
 * authenticator verifies the peer chain itself, so token and anonymous clients still get in.
 * Keep-alive outlives the aggregator's 90 s idle connections (contract §12 #11); watches end by
 * their own timers, so socket timeouts are off.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const server = https.createServer(
    {
      key: options.tls.key,
      cert: options.tls.cert,
      ...(options.tls.clientCa ? { ca: options.tls.clientCa } : {}),
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
      // kube-apiserver (Go's default) takes 1 MiB of headers; Node's 16 KiB would refuse long
      // selectors and names that kube answers with a Status
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    options.app,
  );
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  server.requestTimeout = 0;
  server.timeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // ended watches leave keep-alive sockets behind that only become idle once flushed
        const reaper = setInterval(() => server.closeIdleConnections(), 50);
        server.close(err => {
          clearInterval(reaper);
          if (err) reject(err);
          else resolve();
        });
        options.app.control.beginShutdown();
        options.app.control.endWatches();
        server.closeIdleConnections();
      }),
  };
}
