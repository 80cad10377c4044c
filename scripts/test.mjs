#!/usr/bin/env node
// The README's test command: installs on first use, type-checks, lints, runs every jest
// project (unit, integration and end-to-end) and prints "N passed, N failed" on its own line.
import { readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findPostgresBin, givenPostgres, NO_POSTGRES_HELP, startPostgres } from './lib/postgres.mjs';
import { spawn } from 'node:child_process';
import { ensureDependencies, repoRoot, runYarn, spawnYarn } from './lib/yarn.mjs';

ensureDependencies();

const steps = [];
const skipStatic = process.argv.includes('--no-static');
const jestArgs = process.argv.slice(2).filter(a => a !== '--no-static');

// The type check, the lint and (on a run of every test) the backend's production bundle with the
// app's (what the browser tests serve) are built side by side: each is mostly one core's work,
// one after the other they took minutes, and built in jest the app was built twice.
const before = [];
if (!skipStatic) {
  before.push(['tsc', ['yarn', 'tsc', '--noEmit']], ['lint', ['yarn', 'backstage-cli', 'repo', 'lint']]);
}
if (jestArgs.every(a => a.startsWith('-'))) before.push(['build', ['node', 'scripts/build-fresh.mjs', 'backend']]);
if (before.length) {
  console.log(`\n== ${before.map(([name]) => name).join(', ')} (side by side) ==`);
  const codes = await Promise.all(before.map(([name, [cmd, ...args]]) => runPrefixed(name, cmd === 'yarn' ? spawnYarn(args, { stdio: 'pipe' }) : spawn(process.execPath, args, { cwd: repoRoot, stdio: 'pipe' }))));
  before.forEach(([name], i) => steps.push([name, codes[i]]));
}

// The databases plugin's history store tests run on PostgreSQL too: a server given in the
// environment, else a throwaway one for this run (stopped below, or on exit).
let postgres;
const given = givenPostgres();
if (given) {
  console.log(`\n== PostgreSQL: the one in ${given} ==`);
} else {
  const bin = findPostgresBin();
  if (!bin) {
    console.error(`\n== PostgreSQL: none found; the PostgreSQL cases will fail ==\n${NO_POSTGRES_HELP}`);
  } else {
    try {
      postgres = await startPostgres(bin);
      console.log(`\n== PostgreSQL: ${postgres.version} (${bin}) started in ${postgres.ms} ms ==`);
      process.on('exit', () => postgres?.stop());
      for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
    } catch (e) {
      console.error(`\n== PostgreSQL from ${bin} did not start; the PostgreSQL cases will fail ==\n${e.message}`);
    }
  }
}

console.log('\n== tests (jest) ==');
const out = join(repoRoot, 'test-results.json');
rmSync(out, { force: true });
const jestCode = runYarn(
  ['backstage-cli', 'repo', 'test', '--json', `--outputFile=${out}`, ...jestArgs],
  { env: { CI: 'true', ...postgres?.env } },
);
postgres?.stop();
postgres = undefined;

/** Resolves `child`'s exit code, its output's lines printed as they come, each behind `[name] `. */
function runPrefixed(name, child) {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', d => {
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      for (const line of lines) console.log(`[${name}] ${line}`);
    });
    stream.on('end', () => rest && console.log(`[${name}] ${rest}`));
  }
  return new Promise(resolve => child.on('close', code => resolve(code ?? 1)));
}

/** The `count` test files that took longest, so that a slow-down shows in every CI log. */
function printSlowest(testResults, count) {
  const slowest = testResults
    .map(t => ({ file: relative(repoRoot, t.name), ms: t.endTime - t.startTime }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  console.log(`\n== the ${slowest.length} slowest test files ==`);
  for (const { file, ms } of slowest) console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
}

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests;
  skipped = r.numPendingTests + (r.numTodoTests ?? 0);
  // A suite that fails to run (syntax error, failed beforeAll) has no failed tests: count it.
  failed += r.testResults.filter(t => t.status === 'failed' && t.assertionResults.every(a => a.status !== 'failed')).length;
  printSlowest(r.testResults, 10);
} catch (e) {
  console.error(`could not read jest results: ${e.message}`);
  failed += 1;
}
for (const [name, code] of steps) {
  if (code !== 0) {
    console.error(`${name} failed (exit ${code})`);
    failed += 1;
  }
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || jestCode !== 0 ? 1 : 0);
