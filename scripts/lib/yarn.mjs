// Runs the Yarn release committed in the repo, so a fresh machine needs only Node and npm.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function yarnPath() {
  const rc = readFileSync(join(repoRoot, '.yarnrc.yml'), 'utf8');
  const m = rc.match(/^yarnPath:\s*(\S+)/m);
  return join(repoRoot, m[1]);
}

/** Environment for yarn: better-sqlite3 and other native addons build against the local Node headers. */
export function yarnEnv(extra = {}) {
  const nodePrefix = dirname(dirname(process.execPath));
  return {
    ...process.env,
    npm_config_nodedir: process.env.npm_config_nodedir || nodePrefix,
    COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
    ...extra,
  };
}

export function runYarn(args, opts = {}) {
  const r = spawnSync(process.execPath, [yarnPath(), ...args], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: yarnEnv(opts.env),
  });
  return r.status ?? 1;
}

export function spawnYarn(args, opts = {}) {
  return spawn(process.execPath, [yarnPath(), ...args], {
    cwd: opts.cwd ?? repoRoot,
    stdio: opts.stdio ?? 'inherit',
    env: yarnEnv(opts.env),
    detached: opts.detached ?? false,
  });
}

/**
 * Installs dependencies on first use (or when yarn.lock changed since the last install):
 * Yarn writes node_modules/.yarn-state.yml on every install.
 */
export function ensureDependencies() {
  const state = join(repoRoot, 'node_modules', '.yarn-state.yml');
  const lock = join(repoRoot, 'yarn.lock');
  const { mtimeMs: lockTime } = existsSync(lock) ? statSyncSafe(lock) : { mtimeMs: 0 };
  if (existsSync(state) && statSyncSafe(state).mtimeMs >= lockTime) return;
  console.log('Installing dependencies with the in-repo Yarn (first run takes a few minutes)...');
  const code = runYarn(['install', '--immutable']);
  if (code !== 0) {
    console.error('yarn install failed');
    process.exit(code);
  }
}

import { statSync } from 'node:fs';
function statSyncSafe(p) {
  try {
    return statSync(p);
  } catch {
    return { mtimeMs: 0 };
  }
}

export function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}
