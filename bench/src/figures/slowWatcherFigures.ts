import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { statusFlipper } from './statusFlipper';
import type { SizeContext } from './types';
import { deliveryRounds, openWatchers, watchNeedle } from './watchFigures';

const MiB = 1024 * 1024;

/**
 * A stuck client: 20 watchers that read and one that never does, while a burst of changes goes
 * out. Shows the others' latency with it present, the apiserver's heap before and after (after
 * full GCs), and whether the apiserver cut the stuck watch off (it resumes like any client).
 */
export async function slowWatcherFigures(ctx: SizeContext): Promise<Figure[]> {
  const readers = 20;
  const flip = statusFlipper(ctx.cluster.emulator, ctx.instances);
  const writeChanges = async (n: number) => {
    for (let i = 0; i < n; i++) {
      flip().apply();
      // let the emulator's watch and the apiserver drain every few hundred writes
      if (i % 500 === 499) await new Promise(r => setTimeout(r, 20));
    }
  };
  // Fill the apiserver's watch history (10,000 events by default), with the readers already
  // watching so its events are encoded as they will be later: that growth is bounded by design
  // and would otherwise be counted here.
  const set = await openWatchers(ctx, readers);
  let stuckSet: number | undefined;
  try {
    await writeChanges(ctx.iterations.historyFill);
    await new Promise(r => setTimeout(r, 500));
    stuckSet = await openWatchers(ctx, 1, true);
    const before = await ctx.apiserver.memory();
    // Enough change events that their lines (~2 KiB each) far exceed what a watch may buffer.
    const burst = ctx.iterations.changeBurst;
    const burstStarted = performance.now();
    await writeChanges(burst);
    ctx.log(`  ${burst} changes written in ${((performance.now() - burstStarted) / 1000).toFixed(1)} s`);
    // Readers are timed while the stuck watch is still open and until past the apiserver's
    // grace for it (5 s); with a burst too small to overflow anything there is nothing to outlast.
    const rounds = ctx.iterations.watchRounds;
    const { latencies, missed } = await deliveryRounds(ctx.client, set, rounds, flip, watchNeedle, {
      pauseMs: burst >= 1000 ? Math.max(150, Math.ceil(6500 / rounds)) : 150,
    });
    const after = await ctx.apiserver.memory();
    const states: Array<{ closed: boolean; bytes: number }> = await ctx.client.call('streamState', { set });
    // a cut watch closes at once when read again; an uncut one would keep going: stop looking soon
    const stuck = await ctx.client.call('resumeLast', { set: stuckSet, timeoutMs: burst >= 1000 ? 10_000 : 1000 });
    const s = summarize(latencies);
    return [
      makeFigure('slow watcher: others\' delivery p99', ctx.size, s.p99, 'ms', { op: '<=', value: 50 },
        `${readers} reading watchers + 1 that never reads, after a burst of ${burst} changes; p50 ${s.p50.toFixed(1)} ms, ${missed} missed`),
      makeFigure('slow watcher: apiserver memory growth', ctx.size, (after.heapUsed + after.external - before.heapUsed - before.external) / MiB, 'MiB',
        { op: '<=', value: 64 },
        `heap + external (buffers) after full GCs, before vs after the burst; the bound is one watch's hard limit; RSS ${(before.rss / MiB).toFixed(0)} → ${(after.rss / MiB).toFixed(0)} MiB`),
      makeFigure('slow watcher: cut off by the apiserver', ctx.size, stuck.closed ? 1 : 0, 'bool', { op: '>=', value: 1 },
        `${(stuck.bytes / MiB).toFixed(1)} MiB reached it before the cut; readers still open: ${states.filter(x => !x.closed).length}/${readers}`),
    ];
  } finally {
    await ctx.client.call('closeStreams', { set });
    if (stuckSet !== undefined) await ctx.client.call('closeStreams', { set: stuckSet });
  }
}
