/* eslint-disable no-console */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSoak } from './runSoak';
import { parseSoakOptions } from './soakOptions';

/**
 * `yarn soak [--minutes N] [--rate R] [--watchers W] [--outage-seconds S] [--out file]`: see
 * docs/reliability.md. Exits 1 when the verdict fails (an error, a leaked socket or timer, a
 * growing heap).
 */
async function main() {
  const { options, errors } = parseSoakOptions(process.argv.slice(2));
  if (errors.length) {
    for (const e of errors) console.error(`error: ${e}`);
    process.exit(2);
  }
  const started = new Date();
  console.log(`soak: ${options.minutes} min at ${options.rate} ops/s, ${options.watchers} watchers${options.outageSeconds ? `, a ${options.outageSeconds} s outage at mid-run` : ''}`);
  const result = await runSoak(options, line => console.log(`  ${line}`));
  const out =
    options.out ??
    path.resolve(__dirname, '../../soak-results', `soak-${started.toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${options.minutes}m.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  const ops = Object.values(result.workload.ops).reduce((n, o) => n + o.count, 0);
  console.log(`
${result.durationMinutes.toFixed(1)} min, ${ops} operations (${result.workload.opsPerSecond.toFixed(1)}/s), ${result.watchers.totals.events} watch events to ${result.watchers.count} watchers, ${result.phaseChanges} phase changes
503 with Retry-After retried (as client-go does): ${result.workload.retried503}
errors: ${result.errors}${result.workload.firstErrors.length ? `\n  ${[...result.workload.firstErrors, ...result.watchers.errors].slice(0, 10).join('\n  ')}` : ''}
memory slope after ${result.memory.warmupMinutes.toFixed(1)} min warm-up: rss ${result.memory.rssSlopeKiBPerMin.toFixed(1)} KiB/min, heap used ${result.memory.heapUsedSlopeKiBPerMin.toFixed(1)} KiB/min${result.memory.judged ? '' : ' (not judged: under 10 min of steady state)'}
handles after vs before (no client connected): ${JSON.stringify(result.handles.diff)}
shutdown on SIGTERM: exit ${result.shutdown.exitCode} in ${result.shutdown.seconds.toFixed(1)} s
verdict: ${result.verdict.pass ? 'PASS' : `FAIL (${result.verdict.reasons.join('; ')})`}
result: ${path.relative(process.cwd(), out)}`);
  process.exit(result.verdict.pass ? 0 : 1);
}

main().catch(err => {
  console.error(err?.stack ?? err);
  process.exit(1);
});
