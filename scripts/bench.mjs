#!/usr/bin/env node
// `yarn bench`: the performance figures of issue 7 (bench/src/main.ts) — not part of `npm test`.
// Runs the TypeScript harness under Backstage's Node transform; --expose-gc lets memory figures
// be taken after full collections.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findPostgresBin, startPostgres } from './lib/postgres.mjs';
// Dependencies are those of `npm test`/`npm start` (which install on first use): a benchmark run
// never installs anything itself.
import { repoRoot } from './lib/yarn.mjs';

// The Backstage backend of the backstage and frontend groups keeps its plugins' databases where
// production does, in PostgreSQL (a throwaway server for this run): on SQLite, a synchronous
// driver, every catalog query of its processing loop held the backend's event loop.
const wantsBackstage = !process.argv.some(a => /^--(only|markdown)/.test(a)) ||
  process.argv.some((a, i) => /backstage|frontend/.test(a) && (process.argv[i - 1] === '--only' || a.startsWith('--only=')));
let postgres;
const bin = wantsBackstage ? findPostgresBin() : undefined;
if (bin) {
  postgres = await startPostgres(bin);
  console.log(`[bench] ${postgres.version} for the Backstage backend (started in ${postgres.ms} ms)`);
} else if (wantsBackstage) {
  console.log('[bench] no PostgreSQL found: the Backstage backend keeps its databases in SQLite (figures not comparable)');
}

const result = spawnSync(
  process.execPath,
  [
    '--require', '@backstage/cli-node/config/nodeTransform.cjs',
    '--expose-gc',
    '--max-old-space-size=8192',
    join(repoRoot, 'bench', 'src', 'main.ts'),
    ...process.argv.slice(2),
  ],
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '', ...(postgres && { BENCH_BACKSTAGE_DATABASE: postgres.connectionString }) },
  },
);
postgres?.stop();
process.exit(result.status ?? 1);
