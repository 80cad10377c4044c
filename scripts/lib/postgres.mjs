// A throwaway PostgreSQL server for one test run: the databases plugin's history store is tested on
// PostgreSQL as well as SQLite (@backstage/backend-test-utils' TestDatabases, which reads a ready
// server from BACKSTAGE_TEST_DATABASE_POSTGRES<major>_CONNECTION_STRING). initdb into a temp dir,
// postgres on a free 127.0.0.1 port (password auth, a random password; unix socket in the temp dir
// only), fsync off; stopped and deleted at the end. As root, the server runs as the `postgres` user
// (Debian's package creates it): PostgreSQL refuses to run as root.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';

const ENV_RE = /^BACKSTAGE_TEST_DATABASE_POSTGRES\d+_CONNECTION_STRING$/;

/** The name of the variable a server already given to the tests is in, if any. */
export function givenPostgres(env = process.env) {
  return Object.keys(env).find(k => ENV_RE.test(k) && env[k]);
}

/** The folder holding initdb, pg_ctl and postgres: PATH first, then Debian's /usr/lib/postgresql/<major>/bin (newest). */
export function findPostgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const candidates = [];
  if (onPath.status === 0 && onPath.stdout.trim()) candidates.push(dirname(onPath.stdout.trim()));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).filter(v => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))) {
      candidates.push(join(debian, v, 'bin'));
    }
  }
  return candidates.find(dir => ['initdb', 'pg_ctl', 'postgres'].every(b => existsSync(join(dir, b))));
}

async function freePort() {
  const srv = net.createServer();
  await new Promise((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise(resolve => srv.close(resolve));
  return port;
}

/** uid/gid to run the server as: ours, or the `postgres` user's when we are root. */
function serverUser() {
  if (process.getuid?.() !== 0) return {};
  const id = flag => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const u = id('-u');
  const g = id('-g');
  if (u.status !== 0 || g.status !== 0) {
    throw new Error('running as root and there is no `postgres` user to run PostgreSQL as (PostgreSQL refuses root; Debian\'s postgresql package creates the user)');
  }
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/**
 * Starts a server; returns { env, connectionString, stop(), ms, version } or throws an Error whose
 * message says what failed (with the server's log).
 */
export async function startPostgres(bin) {
  const t0 = Date.now();
  const user = serverUser();
  const dir = mkdtempSync(join(os.tmpdir(), 'test-postgres-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const password = randomBytes(18).toString('hex');
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  if (user.uid !== undefined) {
    for (const p of [dir, join(dir, 'pw')]) chownSync(p, user.uid, user.gid);
  }
  chmodSync(dir, 0o700);
  const run = (cmd, args) => {
    const r = spawnSync(join(bin, cmd), args, { cwd: dir, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, ...user, timeout: 60_000 });
    if (r.status !== 0) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
      throw new Error(`${cmd} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}${r.stderr}${serverLog}`);
    }
    return r.stdout;
  };
  const stop = () => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      spawnSync(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate', '-s'], { cwd: dir, ...user, stdio: 'ignore', timeout: 30_000 });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const version = run('postgres', ['--version']).trim();
    const major = version.match(/\(PostgreSQL\)\s+(\d+)/)?.[1];
    if (!major) throw new Error(`cannot read the major version from "${version}"`);
    run('initdb', ['-D', data, '-U', 'postgres', '--pwfile', join(dir, 'pw'), '--auth', 'scram-sha-256', '-E', 'UTF8', '--locale', 'C', '--no-sync', '--no-instructions']);
    const port = await freePort();
    const opts = [
      `-c listen_addresses=127.0.0.1 -p ${port}`,
      `-c unix_socket_directories='${dir}'`,
      '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
      '-c max_connections=200 -c shared_buffers=32MB',
    ].join(' ');
    run('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '30', '-s', '-o', opts]);
    const connectionString = `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
    return {
      version,
      connectionString,
      env: { [`BACKSTAGE_TEST_DATABASE_POSTGRES${major}_CONNECTION_STRING`]: connectionString },
      ms: Date.now() - t0,
      stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}

export const NO_POSTGRES_HELP =
  'No PostgreSQL server for the history store tests: install one (Debian: apt-get install postgresql; ' +
  'scripts/test.mjs then starts a throwaway server from /usr/lib/postgresql/<major>/bin) or put initdb, ' +
  'pg_ctl and postgres on PATH, or give a ready server as BACKSTAGE_TEST_DATABASE_POSTGRES<major>_CONNECTION_STRING ' +
  '(e.g. postgresql://postgres:pw@127.0.0.1:5432/postgres).';
