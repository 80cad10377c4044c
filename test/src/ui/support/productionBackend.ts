import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The backend as production runs it (Backstage's documented image recipe): `backstage-cli package
 * build` of packages/backend, its skeleton and bundle extracted into a folder of their own, and
 * `node packages/backend` there. The production install (`yarn workspaces focus --production`)
 * is stood in for by links to the repository's installed packages, except our own workspaces,
 * which come from the bundle (built, not the sources). Returns the folder.
 */
export function prepareProductionBackend(repoRoot: string): string {
  // built unless fresh: `npm test` builds it (and the app with it) before jest starts
  buildFresh(repoRoot, 'backend');
  const dir = mkdtempSync(path.join(tmpdir(), 'dbaas-backend-prod-'));
  for (const archive of ['skeleton.tar.gz', 'bundle.tar.gz']) {
    const untar = spawnSync('tar', ['xzf', path.join(repoRoot, 'packages/backend/dist', archive)], { cwd: dir, stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`tar xzf ${archive} failed`);
  }
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@internal'), { recursive: true });
  const installed = path.join(repoRoot, 'node_modules');
  for (const entry of readdirSync(installed)) {
    if (entry !== '@internal') symlinkSync(path.join(installed, entry), path.join(modules, entry));
  }
  for (const folder of ['packages', 'plugins']) {
    for (const pkg of readdirSync(path.join(dir, folder))) {
      const name: string = JSON.parse(readFileSync(path.join(dir, folder, pkg, 'package.json'), 'utf8')).name;
      if (name.startsWith('@internal/')) symlinkSync(path.join(dir, folder, pkg), path.join(modules, name));
    }
  }
  return dir;
}

/** `node scripts/build-fresh.mjs <target>`: builds packages/<target> unless its build is newer than its sources. */
export function buildFresh(repoRoot: string, target: 'app' | 'backend') {
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build-fresh.mjs'), target], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`scripts/build-fresh.mjs ${target} failed`);
}
