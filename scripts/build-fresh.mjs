#!/usr/bin/env node
// `node scripts/build-fresh.mjs app|backend`: builds packages/app (the bundle the backend serves)
// or packages/backend (its production bundle, which builds the app too) unless a build newer than
// every source it is made of is there: a test must never run yesterday's code, nor build twice
// what has not changed. One build at a time across processes (jest's workers start browser tests
// and the production backend side by side): a second caller waits for the first, then finds the
// build fresh.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, runYarn } from './lib/yarn.mjs';

/** What each target is built into. */
const OUTPUTS = { app: 'packages/app/dist/index.html', backend: 'packages/backend/dist/bundle.tar.gz' };
const LOCK = path.join(repoRoot, 'packages/.build-lock');
/** A build takes a minute or two on two cores; a lock held this long is stuck. */
const LOCK_WAIT_MS = 10 * 60_000;

/** Workspace name → folder, for the folders whose packages are bundled. */
function workspaces() {
  const dirs = new Map();
  for (const folder of ['packages', 'plugins']) {
    for (const pkg of readdirSync(path.join(repoRoot, folder))) {
      const file = path.join(repoRoot, folder, pkg, 'package.json');
      if (existsSync(file)) dirs.set(JSON.parse(readFileSync(file, 'utf8')).name, path.dirname(file));
    }
  }
  return dirs;
}

/** `name` and the workspaces it depends on at run time (dependencies), transitively: their folders. */
function bundledFolders(name) {
  const dirs = workspaces();
  const found = new Set([name]);
  const visit = pkg => {
    const deps = JSON.parse(readFileSync(path.join(dirs.get(pkg), 'package.json'), 'utf8')).dependencies ?? {};
    for (const [dep, range] of Object.entries(deps)) {
      if (dirs.has(dep) && /^(workspace|link):/.test(range) && !found.has(dep)) {
        found.add(dep);
        visit(dep);
      }
    }
  };
  visit(name);
  return [...found].map(n => dirs.get(n));
}

function newestUnder(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function fresh(target) {
  const output = path.join(repoRoot, OUTPUTS[target]);
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const newest = Math.max(
    statSync(path.join(repoRoot, 'yarn.lock')).mtimeMs,
    ...bundledFolders(target).flatMap(dir => [newestUnder(path.join(dir, 'src')), statSync(path.join(dir, 'package.json')).mtimeMs]),
  );
  return built > newest;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Takes the lock (a directory: mkdir is atomic); false once another holder is done with it. */
async function lock() {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      return true;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    } catch {
      // taken a moment ago, its pid not written yet
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
      rmSync(LOCK, { recursive: true, force: true }); // its holder died mid-build
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${LOCK} held by pid ${holder} for ${LOCK_WAIT_MS / 1000} s`);
    // the holder's build ends the wait; across processes there is nothing to be told by
    await new Promise(r => setTimeout(r, 500));
    if (!existsSync(LOCK)) return false;
  }
}

const target = process.argv[2];
if (!(target in OUTPUTS)) {
  console.error(`usage: node scripts/build-fresh.mjs ${Object.keys(OUTPUTS).join('|')}`);
  process.exit(2);
}
while (!fresh(target)) {
  // the lock is taken by whoever builds first; a waiter looks again (its target may differ)
  if (!(await lock())) continue;
  try {
    // jest sets NODE_ENV=test, which would make the bundler look up a `test` browserslist env.
    if (!fresh(target) && runYarn(['workspace', target, 'build'], { env: { NODE_ENV: 'production' } }) !== 0) {
      console.error(`yarn workspace ${target} build failed`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
  break;
}
