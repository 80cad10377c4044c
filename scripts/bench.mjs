#!/usr/bin/env node
// `yarn bench`: the performance figures of issue 7 (bench/src/main.ts) — not part of `npm test`.
// Runs the TypeScript harness under Backstage's Node transform; --expose-gc lets memory figures
// be taken after full collections.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
// Dependencies are those of `npm test`/`npm start` (which install on first use): a benchmark run
// never installs anything itself.
import { repoRoot } from './lib/yarn.mjs';

const result = spawnSync(
  process.execPath,
  [
    '--require', '@backstage/cli-node/config/nodeTransform.cjs',
    '--expose-gc',
    '--max-old-space-size=8192',
    join(repoRoot, 'bench', 'src', 'main.ts'),
    ...process.argv.slice(2),
  ],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } },
);
process.exit(result.status ?? 1);
