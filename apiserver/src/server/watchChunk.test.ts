import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { watchChunk, writeWatchChunk } from './watchChunk';

const LINES = ['{"type":"ADDED","object":{"n":1}}\n', '{"type":"MODIFIED","object":{"n":"é"}}\n'];

const shared = watchChunk(Buffer.from('{"type":"BOOKMARK"}\n'));

/** Serves `/watch` with the lines written by writeWatchChunk, after `delays[path]` ms. */
async function serve(delays: Record<string, number> = {}) {
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    setTimeout(() => {
      if (req.url === '/watch') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.flushHeaders();
        for (const l of LINES) writeWatchChunk(res, watchChunk(l));
        // shared chunk: the same framed buffer goes to every watcher of an event
        writeWatchChunk(res, shared);
        res.end();
      } else {
        res.end('plain');
      }
    }, delays[req.url ?? ''] ?? 0);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends raw bytes and returns everything the server answers until it closes. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request));
    let out = '';
    s.on('data', d => (out += d.toString('utf8')));
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

describe('writeWatchChunk', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    if (server) await new Promise(r => server!.close(r));
    server = undefined;
  });

  it('frames each line as one HTTP/1.1 chunk that a real client reads, and the response still ends cleanly', async () => {
    const s = await serve();
    server = s.server;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ body: string; headers: http.IncomingHttpHeaders; socket: unknown }>((resolve, reject) => {
        http.get({ port: s.port, host: '127.0.0.1', path, agent }, res => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', d => (body += d));
          res.on('end', () => resolve({ body, headers: res.headers, socket: res.socket }));
        }).on('error', reject);
      });
    const watch = await get('/watch');
    expect(watch.headers['transfer-encoding']).toBe('chunked');
    expect(watch.body).toBe(`${LINES.join('')}{"type":"BOOKMARK"}\n`);
    // the terminating chunk came from res.end(): the keep-alive connection serves the next request
    const next = await get('/other');
    expect(next.body).toBe('plain');
    expect(next.socket).toBe(watch.socket);
    agent.destroy();
  });

  it('counts bytes, not characters, in the chunk size', () => {
    const c = watchChunk(LINES[1]);
    const size = Buffer.byteLength(LINES[1]);
    expect(c.framed.toString('latin1').startsWith(`${size.toString(16)}\r\n`)).toBe(true);
    expect(c.line.toString('utf8')).toBe(LINES[1]);
    expect(c.framed.subarray(-2).toString()).toBe('\r\n');
  });

  it('writes bare lines to an HTTP/1.0 client, which gets no chunked encoding', async () => {
    const s = await serve();
    server = s.server;
    const answer = await raw(s.port, 'GET /watch HTTP/1.0\r\nHost: x\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(body).toBe(`${LINES.join('')}{"type":"BOOKMARK"}\n`);
  });

  it('keeps a pipelined watch behind the response before it on the same connection', async () => {
    // the first answer comes late: the watch's chunks must wait for it, not go out first
    const s = await serve({ '/slow': 100 });
    server = s.server;
    const answer = await raw(s.port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /watch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const first = answer.indexOf('plain');
    const watchStart = answer.indexOf('HTTP/1.1 200', 1);
    expect(first).toBeGreaterThan(0);
    expect(watchStart).toBeGreaterThan(first);
    const watchBody = answer.slice(answer.indexOf('\r\n\r\n', watchStart) + 4);
    const decoded = watchBody.split('\r\n').filter((_, i) => i % 2 === 1).join('');
    expect(decoded).toBe(`${LINES.join('')}{"type":"BOOKMARK"}\n`);
  });
});
