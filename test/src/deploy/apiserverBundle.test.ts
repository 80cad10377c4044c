import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import https from 'node:https';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseManifests, theObject } from './support/manifests';
import { helmTemplate, repoRoot, run, runOk } from './support/tools';

jest.setTimeout(180_000);

let dir: string;
let bundle: string;

beforeAll(() => {
  // Outside the repository, so the bundle cannot lean on node_modules at run time.
  dir = mkdtempSync(path.join(os.tmpdir(), 'dbaas-bundle-'));
  runOk('bash', [path.join(repoRoot, 'deploy/build-apiserver.sh'), dir], {
    timeoutMs: 170_000,
  });
  bundle = path.join(dir, 'apiserver.cjs');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle the way the image does (plain node, no loader), in its own directory. */
const runBundle = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, ['--enable-source-maps', bundle, ...args], {
    cwd: dir,
    timeoutMs: 30_000,
    env: { PATH: process.env.PATH, ...env },
  });

describe('deploy/build-apiserver.sh', () => {
  it('writes one self-contained CommonJS file and its source map', () => {
    expect(existsSync(bundle)).toBe(true);
    expect(existsSync(`${bundle}.map`)).toBe(true);
    // Nothing left to resolve at run time but Node's own modules and the optional add-ons that
    // node-fetch and ws require inside try/catch (they work without them).
    const optional = new Set(['encoding', 'bufferutil', 'utf-8-validate']);
    // ajv keeps `'require("ajv/dist/runtime/…").default'` as string data for standalone code
    // generation; validators compiled in-process get those helpers through their scope instead.
    const source = readFileSync(bundle, 'utf8').replace(
      /(['`])require\("ajv\/dist\/runtime\/[^"]+"\)[^'`]*\1/g,
      '',
    );
    const requires = [...source.matchAll(/\brequire\("([^"]+)"\)/g)].map(
      m => m[1],
    );
    const external = requires.filter(
      r =>
        !r.startsWith('node:') &&
        !builtinModules.includes(r) &&
        !optional.has(r),
    );
    expect(external).toEqual([]);
  });
});

describe("the bundle's /version stamp", () => {
  it("carries the commit it was built from, as kube-apiserver's ldflags do", () => {
    const head = runOk('git', ['rev-parse', 'HEAD']).trim();
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    const source = readFileSync(bundle, 'utf8');
    // esbuild inlines the defined object; the other literal of that shape is the unstamped default.
    const stamps = [
      ...source.matchAll(
        /gitCommit: "([^"]*)", gitTreeState: "([^"]*)", buildDate: "([^"]*)"/g,
      ),
    ].filter(m => m[1] !== '');
    expect(stamps.map(m => m.slice(1, 3))).toEqual([
      [head, expect.stringMatching(/^(clean|dirty)$/)],
    ]);
    expect(Date.parse(stamps[0][3])).toBeGreaterThan(Date.now() - 60 * 60_000);
  });
});

describe('the bundled apiserver', () => {
  // A bad port makes validation fail after every flag was parsed: exit 2 before anything starts,
  // and any unknown or malformed flag would add its own error line.
  const onlyThePortError = [
    'error: --secure-port: must be an integer from 0 to 65535, got 70000',
  ];

  it('without flags prints every problem and exits 2', () => {
    const r = runBundle([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: --tls-cert-file and --tls-private-key-file: required',
    );
  });

  it('rejects --help as an unknown flag with exit 2', () => {
    const r = runBundle(['--help']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--help: unknown flag');
  });

  it('knows every flag the Helm chart passes', () => {
    const deployment = theObject(
      parseManifests(
        helmTemplate(['--set', 'extraArgs={--watch-history-seconds=900}']),
      ),
      'Deployment',
    );
    const args: string[] = deployment.spec.template.spec.containers[0].args;
    const r = runBundle([
      ...args.filter(a => !a.startsWith('--secure-port')),
      '--secure-port=70000',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(onlyThePortError);
  });

  it('knows every flag in the apiserver command lines of docs/development-outside-cluster.md', () => {
    const text = readFileSync(
      path.join(repoRoot, 'docs/development-outside-cluster.md'),
      'utf8',
    );
    const blocks = [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map(m =>
      m[1].replace(/\\\n/g, ' '),
    );
    const commands = blocks
      .flatMap(b => b.split('\n'))
      .map(
        line =>
          /(?:apiserver\.cjs|databases-apiserver start)\s(.*)$/.exec(line)?.[1],
      )
      .filter((rest): rest is string => rest !== undefined);
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const rest of commands) {
      const flags = rest
        .split(/\s+/)
        .filter(t => t.startsWith('--'))
        .map(t => t.replace(/"/g, ''));
      expect(flags.length).toBeGreaterThanOrEqual(3);
      const r = runBundle([...flags, '--secure-port=70000']);
      expect({ flags, errors: r.stderr.trim().split('\n') }).toEqual({
        flags,
        errors: onlyThePortError,
      });
      expect(r.code).toBe(2);
    }
  });

  it('knows every --flag=value docs/install.md suggests for extraArgs', () => {
    const text = readFileSync(path.join(repoRoot, 'docs/install.md'), 'utf8');
    const flags = [...text.matchAll(/`(--[a-z0-9-]+=[^`\s]+)`/g)].map(
      m => m[1],
    );
    expect(flags.length).toBeGreaterThanOrEqual(1);
    const r = runBundle([
      ...flags,
      '--tls-cert-file=c',
      '--tls-private-key-file=k',
      '--secure-port=70000',
    ]);
    expect(r.stderr.trim().split('\n')).toEqual(onlyThePortError);
  });
});

/** The bundle, started against a kube-apiserver that refuses connections. */
interface RunningBundle {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function startBundle(): Promise<RunningBundle> {
  const child = spawn(
    process.execPath,
    [
      bundle,
      '--secure-port=0',
      '--bind-address=127.0.0.1',
      `--tls-cert-file=${path.join(dir, 'tls.crt')}`,
      `--tls-private-key-file=${path.join(dir, 'tls.key')}`,
      `--kubeconfig=${path.join(dir, 'kubeconfig')}`,
      '--authentication-skip-lookup',
      `--client-ca-file=${path.join(dir, 'tls.crt')}`,
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        // Long enough for two requests on a loaded machine after the signal is logged.
        DBAAS_APISERVER_SHUTDOWN_DELAY_MS: '3000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Serving" line in 30 s:\n${output}`)), 30_000);
    const onData = () => {
      const m = /"message":"Serving","port":(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', code => reject(new Error(`exited ${code} before serving:\n${output}`)));
  });
  return { child, port, output: () => output, exited };
}

async function stopBundle(b: RunningBundle | undefined): Promise<void> {
  if (b && b.child.exitCode === null) {
    b.child.kill('SIGKILL');
    await b.exited;
  }
}

describe('the bundled apiserver, running', () => {
  let running: RunningBundle;
  let signalled: RunningBundle | undefined;

  const get = (p: string, port = running.port) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      // Loopback only; the certificate is a throwaway one made for this test.
      const req = https.get(
        {
          host: '127.0.0.1',
          port,
          path: p,
          rejectUnauthorized: false,
          timeout: 5000,
        },
        res => {
          let body = '';
          res.on('data', c => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.on('timeout', () => req.destroy(new Error(`GET ${p} timed out`)));
    });

  beforeAll(async () => {
    runOk('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '1',
      '-keyout',
      path.join(dir, 'tls.key'),
      '-out',
      path.join(dir, 'tls.crt'),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ]);
    // A kube-apiserver that refuses connections (port 1 on loopback): the process must still serve
    // /livez and report itself not ready.
    writeFileSync(
      path.join(dir, 'kubeconfig'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
      ].join('\n'),
    );
    running = await startBundle();
  });

  afterAll(async () => {
    await stopBundle(running);
    await stopBundle(signalled);
  });

  it('is live over HTTPS', async () => {
    expect(await get('/livez')).toEqual({ status: 200, body: 'ok' });
  });

  it('is not ready while it cannot reach kube-apiserver, and says which check fails', async () => {
    const r = await get('/readyz?verbose');
    expect(r.status).toBe(500);
    expect(r.body).toMatch(/\[-\]informer/);
    expect(r.body).toContain('readyz check failed');
  });

  it('on SIGTERM turns unready at once, keeps serving for the delay, then exits 0', async () => {
    // a process of its own, signalled right after its "Serving" line
    const b = (signalled = await startBundle());
    b.child.kill('SIGTERM');
    // The process logs the signal before it turns unready; from then on it serves for the delay.
    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        if (/"message":"Shutting down"/.test(b.output())) resolve();
      };
      onData();
      b.child.stdout!.on('data', onData);
      b.child.stderr!.on('data', onData);
      b.child.on('exit', code =>
        reject(
          new Error(`exited ${code} before logging the signal:\n${b.output()}`),
        ),
      );
    });
    const during = await get('/readyz?verbose', b.port);
    expect(during.body).toMatch(/\[-\]shutdown/);
    expect((await get('/livez', b.port)).status).toBe(200);
    expect(await b.exited).toBe(0);
  });
});
