/* eslint-disable no-console */
/**
 * Prints the most expensive functions of a CPU profile written by `yarn bench --cpu-prof DIR`:
 *   node --require @backstage/cli-node/config/nodeTransform.cjs bench/src/profile/main.ts DIR/CPU.….cpuprofile [top]
 */
import { readFileSync } from 'node:fs';
import { summarizeProfile } from './summarizeProfile';

const [file, top] = process.argv.slice(2);
if (!file) {
  console.error('usage: main.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), Number(top ?? 25));
const line = (e: { fn: string; ms: number }) =>
  `${String(e.ms).padStart(8)} ms ${((100 * e.ms) / summary.totalMs).toFixed(1).padStart(5)}%  ${e.fn}`;
console.log(`total ${summary.totalMs} ms\n-- self --\n${summary.self.map(line).join('\n')}\n-- inclusive --\n${summary.inclusive.map(line).join('\n')}`);
