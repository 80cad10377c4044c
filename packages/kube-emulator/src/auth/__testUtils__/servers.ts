import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
) => void | Promise<void>;

/** A started loopback server and its base URL; `close()` also drops keep-alive sockets. */
export interface TestServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function wrap(handler: Handler): Handler {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (e) {
      const err = e as { code?: unknown; message?: string };
      res.writeHead(typeof err.code === 'number' ? err.code : 500, {
        'Content-Type': 'application/json',
      });
      res.end(JSON.stringify({ error: err.message }));
    }
  };
}

async function listen(
  server: http.Server | https.Server,
  scheme: string,
): Promise<TestServer> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** HTTPS on 127.0.0.1:0 that requests (but does not require) client certificates. */
export function startHttpsServer(
  tls: { certPem: string; keyPem: string },
  handler: Handler,
): Promise<TestServer> {
  const server = https.createServer(
    {
      cert: tls.certPem,
      key: tls.keyPem,
      requestCert: true,
      rejectUnauthorized: false,
    },
    wrap(handler),
  );
  return listen(server, 'https');
}

/** Plain HTTP on 127.0.0.1:0. */
export function startHttpServer(handler: Handler): Promise<TestServer> {
  return listen(http.createServer(wrap(handler)), 'http');
}

/** The result of {@link request}. */
export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with `https`/`http` options (ca, cert, key, headers with arrays for repeated lines). */
export function request(
  url: string,
  options: https.RequestOptions & { body?: string } = {},
): Promise<TestResponse> {
  const { body, ...rest } = options;
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { agent: false, ...rest }, res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
