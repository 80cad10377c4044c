#!/usr/bin/env node
// `yarn soak`: issue 8's long run (test/src/soak/main.ts) — not part of `npm test`. Runs the
// TypeScript harness under Backstage's Node transform. `yarn soak --minutes 5` for a short run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './lib/yarn.mjs';

const result = spawnSync(
  process.execPath,
  ['--require', '@backstage/cli-node/config/nodeTransform.cjs', join(repoRoot, 'test', 'src', 'soak', 'main.ts'), ...process.argv.slice(2)],
  { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } },
);
process.exit(result.status ?? 1);
