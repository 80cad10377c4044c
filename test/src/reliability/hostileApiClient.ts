import https from 'node:https';
import tls from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';

/** One buffered answer (a stream's head only: see {@link HostileApiClient.request}). */
export interface ProbeAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when the server streamed (no Content-Length) and the client cut it after the head. */
  streamed: boolean;
}

/** What a probe sends; header values may repeat (one line each). */
export interface ProbeRequest {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** TLS identity and trust of a client. */
export interface ProbeTls {
  port: number;
  /** CA that signed the server's certificate. */
  ca: string;
  /** Name in the server's certificate (the aggregator dials `<service>.<namespace>.svc`). */
  servername: string;
  /** Client certificate and key presented to the server, if any. */
  cert?: { certPem: string; keyPem: string };
}

/**
 * An HTTPS client for hostile requests against one server on loopback: keep-alive (so thousands
 * of cases cost one handshake), bodies of any size, streams cut after their head, and a raw mode
 * that writes request bytes Node's own client refuses to send (CR/LF in header values, paths
 * with spaces or control characters).
 */
export class HostileApiClient {
  private readonly agent: https.Agent;

  constructor(private readonly target: ProbeTls) {
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: 8,
      ca: target.ca,
      servername: target.servername,
      ...(target.cert ? { cert: target.cert.certPem, key: target.cert.keyPem } : {}),
    });
  }

  /**
   * Sends one request. A response without Content-Length (a watch) resolves with its head, and
   * its connection is destroyed so the stream does not outlive the case.
   */
  request(probe: ProbeRequest, retried = false): Promise<ProbeAnswer> {
    return new Promise((resolve, reject) => {
      const body = probe.body === undefined ? undefined : Buffer.from(probe.body);
      const req = https.request(
        {
          host: '127.0.0.1',
          port: this.target.port,
          method: probe.method,
          path: probe.path,
          agent: this.agent,
          headers: {
            ...(body ? { 'content-length': String(body.length) } : {}),
            ...probe.headers,
          },
        },
        res => {
          const chunks: Buffer[] = [];
          const streamed = res.headers['content-length'] === undefined;
          const finish = () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              streamed,
            });
          if (streamed && res.statusCode === 200) {
            // a watch never ends by itself: its head is the answer, the connection is dropped
            res.on('error', () => undefined);
            req.destroy();
            finish();
            return;
          }
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', finish);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // a kept-alive socket the server closed while idle (the race Node's docs describe for
        // `reusedSocket`) is not an answer: send once more on a fresh one
        if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) this.request(probe, true).then(resolve, reject);
        else reject(err);
      });
      if (body) req.write(body);
      req.end();
    });
  }

  /**
   * Writes `raw` (a whole HTTP/1.1 request, framing included) on a fresh TLS connection and
   * returns what came back before the server closed or `timeoutMs` passed, unparsed.
   */
  raw(raw: string | Buffer, timeoutMs = 2000): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        host: '127.0.0.1',
        port: this.target.port,
        ca: this.target.ca,
        servername: this.target.servername,
        ...(this.target.cert ? { cert: this.target.cert.certPem, key: this.target.cert.keyPem } : {}),
      });
      const chunks: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        socket.destroy();
        resolve(Buffer.concat(chunks).toString('latin1'));
      };
      timer = setTimeout(done, timeoutMs);
      socket.on('secureConnect', () => socket.write(raw));
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        // one full response is enough: the server may keep the connection open
        const text = Buffer.concat(chunks).toString('latin1');
        const head = text.indexOf('\r\n\r\n');
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, head));
        if (head >= 0 && length && text.length - head - 4 >= Number(length[1])) done();
      });
      socket.on('end', done);
      socket.on('error', err => {
        clearTimeout(timer);
        if (chunks.length) done();
        else reject(err);
      });
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Parses the status line, headers and body of one raw HTTP/1.1 response. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const head = text.indexOf('\r\n\r\n');
  const lines = (head < 0 ? text : text.slice(0, head)).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status, headers, body: head < 0 ? '' : text.slice(head + 4) };
}
