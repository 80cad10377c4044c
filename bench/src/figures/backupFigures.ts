import { benchNamespace } from '../population/populate';
import { populateBackups } from '../population/populateBackups';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { TABLE_ACCEPT } from './listFigures';
import type { IterationTimes } from '../client/clientChild';
import type { SizeContext } from './types';

const BACKUPS = '/apis/dbaas.platform.dev/v1alpha1/databasebackups';
const JSON_ACCEPT = { Accept: 'application/json' };
/** Backup runs per instance of the population: 50,000 across 10,000 instances, the issue's figure. */
const RUNS_PER_INSTANCE = 5;

/**
 * Backup list figures (issue 22): `RUNS_PER_INSTANCE` × size completed runs written into the
 * emulator (over the instances whose operator has backups), then `-A` p50 as JSON and as the
 * Table kubectl asks for, with when the headers and the last byte came (the rest of a timing is
 * the client inflating), and one namespace p99, as the instance list figures are timed.
 * Targets at 10,000 instances: `-A` is the Table's (`kubectl get dbb -A`).
 */
export async function backupFigures(ctx: SizeContext): Promise<Figure[]> {
  const { size, iterations: it, client } = ctx;
  const api = ctx.cluster.apiserverTarget(ctx.apiserver.port);
  const at10k = size === 10_000;
  const count = RUNS_PER_INSTANCE * size;
  const t0 = performance.now();
  const perNamespace = populateBackups(ctx.cluster.emulator, ctx.instances, count, ms => ctx.cluster.setClockBack(ms));
  ctx.log(`  wrote ${count} backup runs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // the apiserver serves them once its watch has delivered every one
  const deadline = Date.now() + 300_000;
  for (;;) {
    const r = await client.call('fetch', { target: api, request: { path: BACKUPS, headers: JSON_ACCEPT } });
    const items = r.status === 200 ? (JSON.parse(r.body).items ?? []).length : -1;
    if (items === count) break;
    if (Date.now() > deadline) throw new Error(`the apiserver serves ${items} of ${count} backup runs after 300 s`);
    await new Promise(res => setTimeout(res, 1000));
  }
  ctx.log(`  the apiserver serves all ${count} after ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // as JSON, and as the Table `kubectl get dbb -A` asks for (its columns and each run's metadata)
  const timed: Array<{ format: string; times: IterationTimes[]; bytes: number; wireBytes: number }> = [];
  for (const [format, headers] of [['JSON', JSON_ACCEPT], ['Table', TABLE_ACCEPT]] as const) {
    const times: IterationTimes[] = await client.call('timeIterations', {
      target: api,
      iterations: Array.from({ length: it.warmup + it.large }, () => [{ path: BACKUPS, headers }]),
      warmup: it.warmup,
      warmupMs: it.warmupMs,
      phases: true,
    });
    // what the timed requests carried (the gzip blocks are filled by now)
    const warm: { bytes: number; wireBytes: number } = await client.call('fetch', { target: api, request: { path: BACKUPS, headers }, withoutBody: true });
    timed.push({ format, times, bytes: warm.bytes, wireBytes: warm.wireBytes });
  }
  const mib = (n: number) => (n / 1048576).toFixed(1);
  const namespaces = [...perNamespace.keys()].sort();
  const nsWarmup = Math.max(it.warmup, namespaces.length);
  const nsMs: number[] = await client.call('timeIterations', {
    target: api,
    iterations: Array.from({ length: nsWarmup + it.small }, (_, i) => [
      { path: `/apis/dbaas.platform.dev/v1alpha1/namespaces/${namespaces[i % namespaces.length] ?? benchNamespace(0)}/databasebackups`, headers: JSON_ACCEPT },
    ]),
    warmup: nsWarmup,
    warmupMs: it.warmupMs,
  });
  const ns = summarize(nsMs);
  const perNs = Math.round(count / namespaces.length);
  return [
    ...timed.map(({ format, times, bytes, wireBytes }) => {
      const a = summarize(times.map(t => t.ms));
      const p50 = (pick: (t: IterationTimes) => number) => summarize(times.map(pick)).p50.toFixed(1);
      // The target is the Table's: it is what `kubectl get dbb -A` asks for. The JSON list of the
      // same runs is twice the bytes, and inflating them alone takes the client more than 30 ms.
      const target = at10k && format === 'Table' ? { op: '<=' as const, value: 30 } : undefined;
      return makeFigure(`backups: list -A ${format} p50`, size, a.p50, 'ms', target,
        `${count} runs over the instances of engines with backups: ${mib(bytes)} MiB, ${Math.round(bytes / count)} B a run (${mib(wireBytes)} MiB gzip, asked for as client-go does, decompressed in the timing); p50 of its parts: headers after ${p50(t => t.headersMs)} ms, last byte after ${p50(t => t.receivedMs)} ms, the rest inflating; p99 ${a.p99.toFixed(1)} ms; n=${a.n}${format === 'JSON' ? ' (context: `kubectl get dbb -A` asks for the Table)' : ''}`);
    }),
    makeFigure('backups: list one namespace p99', size, ns.p99, 'ms', at10k ? { op: '<=', value: 5 } : undefined,
      `~${perNs} of ${count}; p50 ${ns.p50.toFixed(2)} ms; n=${ns.n} after ${it.warmupMs / 1000} s of warm-up`),
  ];
}
