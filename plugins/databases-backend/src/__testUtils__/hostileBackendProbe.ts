import http from 'node:http';
import fc from 'fast-check';
import { mockCredentials } from '@backstage/backend-test-utils';
import { settleAfterWrite, wroteSince } from '@internal/e2e';
import type { HostileBackend } from './startHostileBackend';

/** Cases per route family in CI; set DBAAS_HOSTILE_BACKEND_RUNS=10000 for a long hunt. */
export const BACKEND_RUNS = Number(process.env.DBAAS_HOSTILE_BACKEND_RUNS ?? 600);

/** Test timeout for suites of families of BACKEND_RUNS cases: a family of a longer hunt may take minutes (a case takes 1–13 ms). */
export const BACKEND_TIMEOUT_MS = Math.max(120_000, BACKEND_RUNS * 3 * 40);

const FRAGMENTS = ['', ' ', '"', "'", '\\', '/', '..', '%2F', '%252F', '%00', '%zz', '?', '#', '&', '=', ':', ',', '{', '}', '[', ']', '\u0000', '\u00e9', '\ud83d\ude00', '\ud800', '__proto__', 'constructor', 'null', '-1', '1e309', 'NaN'];

/** Any string: ASCII, binary UTF-16 (lone surrogates included), separators and escapes of every grammar. */
export const hostile = (max = 30) =>
  fc.oneof(
    fc.string({ maxLength: max }),
    fc.string({ unit: 'binary', maxLength: max }),
    fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 4 }).map(p => p.join('')),
  );

/** Percent-encodes the UTF-8 bytes of `s` except unreserved characters (never throws). */
export const encode = (s: string) =>
  Buffer.from(s, 'utf8')
    .toString('latin1')
    .replace(/[^A-Za-z0-9\-._~]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** A path segment: encoded, or raw where the request line allows it (slashes, dots, percent signs). */
export const segment = (s: string) => fc.constantFrom(encode(s), encode(s), s.replace(/[^\x21-\x7e]/g, c => encode(c)).replace(/[?#]/g, encode));

/** A JSON value of any kind, or a hostile string. */
export const jsonValue = () =>
  fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostile(), fc.constantFrom<unknown>(null, -1, 1e308, 1.5, [], {}, true, { toString: 0 }, { __proto__: { x: 1 } }, ['constructor']));

/** Who sends: signed-in users, a broken or missing token, a service token. */
export type Who = 'alice' | 'bob' | 'carol' | 'invalid' | 'none' | 'service';
export const who = () =>
  fc.oneof({ weight: 6, arbitrary: fc.constantFrom<Who>('alice', 'alice', 'bob', 'carol') }, { weight: 1, arbitrary: fc.constantFrom<Who>('invalid', 'none', 'service') });

/** `arb` once in `n` cases, else null. */
export const rarely = <T>(arb: fc.Arbitrary<T>, n: number) => fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** Identity headers a browser could add beside its real token (in a third of the cases): none may change who the backend acts as. */
export const forged = () =>
  rarely(
    fc.constantFrom<Record<string, string>>(
      { 'Impersonate-User': 'user:default/bob', 'Impersonate-Group': 'group:default/team-b' },
      { 'Impersonate-Group': 'system:masters' },
      { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' },
      { 'x-backstage-user': 'user:default/bob' },
      { cookie: 'backstage-token=whatever' },
    ),
    3,
  );

/** A cluster name: mostly the configured one, now and then anything at all. */
export const clusterName = () => fc.oneof({ weight: 6, arbitrary: fc.constant('local') }, { weight: 1, arbitrary: hostile(12) });

/** The path of one instance (mostly one of `known`, as namespace and name), with who asks and the identity headers they forge. */
export const instancePath = (known: Array<[string, string]>) =>
  fc
    .record({
      caller: who(),
      cluster: clusterName(),
      object: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.tuple(hostile(20), hostile(20)) }),
      forged: forged(),
    })
    .chain(c =>
      fc.tuple(segment(c.cluster), segment(c.object[0]), segment(c.object[1])).map(([cl, ns, n]) => ({ ...c, path: `/api/databases/clusters/${cl}/namespaces/${ns}/instances/${n}` })),
    );

/** One request to the backend. */
export interface BackendRequest {
  method: string;
  path: string;
  caller: Who;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Known not to change the cluster when it succeeds (a dry run, a read). */
  dryRun?: boolean;
}

export interface BackendAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const AUTH = {
  alice: mockCredentials.user.header('user:default/alice'),
  bob: mockCredentials.user.header('user:default/bob'),
  carol: mockCredentials.user.header('user:default/carol'),
};

/** A keep-alive client of one backend; server-sent event streams are cut after their head. */
export function backendClient(b: HostileBackend) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const send = (r: BackendRequest, retried = false): Promise<BackendAnswer> =>
    new Promise((resolve, reject) => {
      const authorization = {
        invalid: mockCredentials.user.invalidHeader(),
        none: undefined,
        service: mockCredentials.service.header(),
        ...AUTH,
      }[r.caller];
      const auth: Record<string, string> = authorization ? { authorization } : {};
      const req = http.request(
        {
          host: '127.0.0.1',
          port: b.port,
          method: r.method,
          path: r.path,
          agent,
          headers: { ...r.headers, ...auth, ...(r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}) },
        },
        res => {
          if (res.headers['content-type']?.startsWith('text/event-stream')) {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // a kept-alive socket the server closed while idle (the race Node's docs describe for
        // `reusedSocket`) is not an answer: send once more on a fresh one
        if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) send(r, true).then(resolve, reject);
        else reject(err);
      });
      if (r.body !== undefined) req.write(r.body);
      req.end();
    });

  const describe = (r: BackendRequest, a: BackendAnswer) =>
    `${r.caller} ${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.headers ?? {})} ${String(r.body ?? '').slice(0, 300)}\n→ ${a.status} ${a.body.slice(0, 400)}`;

  /**
   * The oracle of every backend case: never a 5xx; every refusal is a Backstage error body
   * (`{ error: { name, message }, response: { statusCode } }`); alice (team-a) is never shown
   * team-b, whatever she adds; a refused, dry-run or read request leaves the cluster unchanged.
   */
  const check = (r: BackendRequest, a: BackendAnswer, rvBefore: number) => {
    if (a.status >= 500) throw new Error(`a 5xx:\n${describe(r, a)}`);
    if (a.status >= 400) {
      let body: any;
      try {
        body = JSON.parse(a.body);
      } catch {
        throw new Error(`a ${a.status} that is not JSON:\n${describe(r, a)}`);
      }
      if (typeof body?.error?.name !== 'string' || typeof body.error.message !== 'string' || body.response?.statusCode !== a.status) {
        throw new Error(`not a Backstage error body:\n${describe(r, a)}`);
      }
    }
    if (r.caller === 'alice' && a.status < 300 && a.body.includes('"namespace":"team-b"')) throw new Error(`alice read team-b:\n${describe(r, a)}`);
    const wrote = a.status >= 400 || r.dryRun || r.method === 'GET' ? wroteSince(b.system, rvBefore) : undefined;
    if (wrote) {
      throw new Error(`a refused, dry-run or read request changed the cluster (${wrote}):\n${describe(r, a)}`);
    }
  };

  /** Runs one route family through the oracle and reports its time per case and status codes. */
  const family = async <T>(name: string, arb: fc.Arbitrary<T>, toRequest: (c: T) => BackendRequest, runs = BACKEND_RUNS) => {
    const started = process.hrtime.bigint();
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(arb, async c => {
        const r = toRequest(c);
        // the apiserver records each instance's Ready spec on its own (ReadySpecRecorder): that
        // write, and its binding Secrets (BindingSecrets), are none of this request's
        await b.system.apiserver.readySpecs.idle();
        await b.system.apiserver.bindings.idle();
        const rvBefore = b.system.emulator.store.currentRV();
        const a = await send(r);
        codes.set(a.status, (codes.get(a.status) ?? 0) + 1);
        check(r, a, rvBefore);
        // an accepted write makes the apiserver write of its own accord (a new instance's binding
        // Secret): done before the next case compares the cluster
        if (r.method !== 'GET' && !r.dryRun && a.status < 300) await settleAfterWrite(b.system, portalInstanceOf(a.body));
      }),
      { numRuns: runs },
    );
    const ms = Number(process.hrtime.bigint() - started) / 1e6 / runs;
    // eslint-disable-next-line no-console
    console.log(`backend ${name}: ${runs} cases, ${ms.toFixed(2)} ms/case, codes ${JSON.stringify(Object.fromEntries(codes))}`);
    return codes;
  };

  return { send, family, close: () => agent.destroy() };
}

export type BackendClient = ReturnType<typeof backendClient>;

/** The instance a portal answer carries (`{ cluster, instance }`), if it carries one. */
function portalInstanceOf(text: string): { metadata?: { namespace?: string; name?: string } } | undefined {
  try {
    return JSON.parse(text)?.instance;
  } catch {
    return undefined;
  }
}

/** Whether a JSON body text asks for a dry run (unparseable bodies are refused, so they count as one). */
export const asksDryRun = (text: string) => {
  // no body at all is a request of its own (back up now), not one refused for its body
  if (!text.trim()) return false;
  try {
    return JSON.parse(text)?.dryRun === true;
  } catch {
    return true;
  }
};
