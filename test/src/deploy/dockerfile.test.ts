import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './support/tools';

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(file: string): Array<{ op: string; args: string }> {
  return readFileSync(file, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map(l => l.trim())
    .filter(l => l && !l.startsWith('#'))
    .map(l => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

// No Docker engine here: check what can go stale without one (paths, versions, user).
describe('deploy/apiserver.Dockerfile', () => {
  const steps = instructions(
    path.join(repoRoot, 'deploy/apiserver.Dockerfile'),
  );
  const froms = steps.filter(s => s.op === 'FROM').map(s => s.args);
  const last = steps.slice(
    steps.findIndex(s => s.op === 'FROM' && s.args === froms[froms.length - 1]),
  );
  const pkg = JSON.parse(
    readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
  );

  it('builds on Node 20 and runs on distroless Node 20 as non-root', () => {
    expect(froms).toEqual([
      'node:20-bookworm-slim AS build',
      'gcr.io/distroless/nodejs20-debian12:nonroot',
    ]);
    const user = last.find(s => s.op === 'USER')?.args ?? '';
    expect(user).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
  });

  it('installs with the Yarn release committed in the repository, immutably', () => {
    const install = steps.find(
      s => s.op === 'RUN' && s.args.includes('.yarn/releases/'),
    )!.args;
    const yarn = /(\.yarn\/releases\/yarn-([\d.]+)\.cjs)/.exec(install)!;
    expect(existsSync(path.join(repoRoot, yarn[1]))).toBe(true);
    expect(pkg.packageManager).toBe(`yarn@${yarn[2]}`);
    expect(install).toContain('install --immutable');
  });

  it('bundles with deploy/build-apiserver.sh and runs what it copied', () => {
    const build = steps.find(
      s => s.op === 'RUN' && s.args.includes('deploy/build-apiserver.sh'),
    )!;
    const out = /build-apiserver\.sh\s+(\S+)/.exec(build.args)![1];
    const copy = last
      .find(s => s.op === 'COPY' && s.args.startsWith('--from=build'))!
      .args.split(/\s+/);
    expect(copy).toContain(`${out}/apiserver.cjs`);
    const entrypoint: string[] = JSON.parse(
      last.find(s => s.op === 'ENTRYPOINT')!.args,
    );
    const dest = copy[copy.length - 1];
    expect(entrypoint[0]).toBe('/nodejs/bin/node');
    expect(entrypoint[entrypoint.length - 1]).toBe(
      path.posix.join(dest, 'apiserver.cjs'),
    );
    // Pod `args` replace CMD only; the script must not live there or the flags would reach node.
    expect(last.find(s => s.op === 'CMD')?.args ?? '[]').toBe('[]');
  });

  it('preloads jemalloc from a file its last stage copied, from the package the build stage installed', () => {
    const env = Object.fromEntries(
      last
        .filter(s => s.op === 'ENV')
        .flatMap(s => s.args.split(/\s+/))
        .map(pair => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    expect(env.LD_PRELOAD).toBe('/usr/local/lib/libjemalloc.so.2');
    // without its background thread jemalloc gives freed memory back only when the process allocates again
    expect(env.MALLOC_CONF).toContain('background_thread:true');
    const copy = last.find(s => s.op === 'COPY' && s.args.endsWith(` ${env.LD_PRELOAD}`))!.args.split(/\s+/);
    expect(copy[0]).toBe('--from=build');
    const built = steps.find(s => s.op === 'RUN' && s.args.includes(`libjemalloc.so.2 ${copy[1]}`));
    expect(built?.args).toMatch(/^cp \/usr\/lib\/\*-linux-gnu\/libjemalloc\.so\.2 /);
    expect(steps.find(s => s.op === 'RUN' && s.args.includes('apt-get install'))!.args).toMatch(/\blibjemalloc2\b/);
  });

  it('targets the Node major the image runs', () => {
    const script = readFileSync(
      path.join(repoRoot, 'deploy/build-apiserver.sh'),
      'utf8',
    );
    expect(script).toContain('--target=node20');
    expect(pkg.engines.node).toMatch(/\b20\b/);
  });
});
