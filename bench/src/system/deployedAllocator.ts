import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The malloc the apiserver image runs with, as this machine can load it. */
export interface DeployedAllocator {
  /** Environment to start the apiserver with (empty when the library is not installed here). */
  env: Record<string, string>;
  /** What the memory figures were measured with, in words. */
  note: string;
}

/** `ENV` settings of a Dockerfile's last stage (`KEY=value` pairs; continuation lines joined). */
export function lastStageEnv(dockerfile: string): Record<string, string> {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n').map(l => l.trim());
  const last = lines.map(l => /^FROM\s/i.test(l)).lastIndexOf(true);
  const env: Record<string, string> = {};
  for (const line of lines.slice(last)) {
    const m = /^ENV\s+(.*)$/i.exec(line);
    if (!m) continue;
    for (const pair of m[1].split(/\s+/)) {
      const eq = pair.indexOf('=');
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1).replace(/^"(.*)"$/, '$1');
    }
  }
  return env;
}

/** Where Debian (any architecture) or a local build puts a shared library. */
export function libraryDirs(): string[] {
  const multiarch = existsSync('/usr/lib') ? readdirSync('/usr/lib').filter(d => d.endsWith('-linux-gnu')).map(d => path.join('/usr/lib', d)) : [];
  return [...multiarch, '/usr/local/lib', '/usr/lib'];
}

/**
 * The image's `LD_PRELOAD` and `MALLOC_CONF` (deploy/apiserver.Dockerfile), with the library
 * found where this machine has it: the bench measures the process's memory as deployed, and
 * says so when it cannot.
 */
export function deployedAllocator(repoRoot: string, dirs = libraryDirs()): DeployedAllocator {
  const env = lastStageEnv(readFileSync(path.join(repoRoot, 'deploy/apiserver.Dockerfile'), 'utf8'));
  if (!env.LD_PRELOAD) return { env: {}, note: "glibc's malloc, as the image runs" };
  const file = path.basename(env.LD_PRELOAD);
  const local = dirs.map(d => path.join(d, file)).find(existsSync);
  if (!local) return { env: {}, note: `glibc's malloc, NOT the image's ${file} (not installed here: apt-get install libjemalloc2)` };
  return {
    env: { LD_PRELOAD: local, ...(env.MALLOC_CONF && { MALLOC_CONF: env.MALLOC_CONF }) },
    note: `${file} preloaded${env.MALLOC_CONF ? ` with MALLOC_CONF=${env.MALLOC_CONF}` : ''}, as the image runs`,
  };
}
