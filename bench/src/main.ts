/* eslint-disable no-console */
/**
 * `yarn bench` (scripts/bench.mjs starts this under Node's TypeScript transform with
 * --expose-gc): prints one line per figure and writes bench/results/<date>-<commit>.json and
 * bench/results/latest.json. Exits 0 when targets are missed (it is a benchmark) and 1 only when
 * the harness itself broke.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBenchArgs, USAGE } from './options/parseBenchArgs';
import { commitOf } from './report/commitOf';
import { toMarkdown } from './report/toMarkdown';
import { machineInfo, writeResults } from './report/writeResults';
import { runBench } from './runBench';
import { repoRoot } from './system/ApiserverProcess';

async function main() {
  let options;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (e) {
    console.error(String((e as Error).message));
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  if (options.markdown) {
    console.log(toMarkdown(JSON.parse(readFileSync(options.markdown, 'utf8'))));
    return;
  }
  const date = new Date().toISOString();
  const log = (m: string) => console.error(`[bench] ${m}`);
  console.log(`${'figure'.padEnd(44)} ${'size'.padStart(6)} ${'value'.padStart(11)} ${'unit'.padEnd(8)} ${'target'.padEnd(10)} mark`);
  const { figures, errors } = await runBench(options, { line: l => console.log(l), log });
  const judged = figures.filter(f => f.pass !== null);
  const passed = judged.filter(f => f.pass).length;
  console.log(
    `\n${figures.length} figures: ${passed} of ${judged.length} targets met, ${judged.length - passed} missed${errors.length ? `; ${errors.length} group(s) FAILED TO RUN` : ''}`,
  );
  if (options.save) {
    const file = writeResults(options.outDir ?? path.join(repoRoot, 'bench', 'results'), {
      date,
      commit: commitOf(repoRoot),
      command: `yarn bench ${process.argv.slice(2).join(' ')}`.trim(),
      machine: machineInfo(),
      figures,
      errors,
    });
    console.log(`results: ${path.relative(process.cwd(), file)}`);
  }
  process.exit(errors.length ? 1 : 0);
}

main().catch(e => {
  console.error(`[bench] harness failed: ${(e as Error)?.stack ?? e}`);
  process.exit(1);
});
