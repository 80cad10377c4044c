import { constants, performance, PerformanceObserver, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

const MiB = 1024 * 1024;
/** How often the settler looks at the heap and the event loop. */
const CHECK_MS = 10_000;
/** Old space left free (committed, not used) worth a compaction: at least this much... */
const MIN_FREE_BYTES = 64 * MiB;
/** ...and at least this share of what is committed. */
const MIN_FREE_SHARE = 0.1;
/** Busier than this over the last check (event loop utilisation) and the process is not quiet. */
const QUIET_UTILIZATION = 0.1;

/** The old space: bytes committed, and bytes its last full collection found alive. */
export interface OldSpace {
  committed: number;
  used: number;
}

/**
 * Whether to compact the old space now: the interval since the last compaction (or the start)
 * has passed, the process was quiet over the last check, and the old space holds enough free
 * room (what a burst left behind) to be worth a pause. Pure.
 */
export function shouldSettle(old: OldSpace, utilization: number, sinceLastMs: number, intervalMs: number): boolean {
  if (intervalMs <= 0 || sinceLastMs < intervalMs || utilization >= QUIET_UTILIZATION) return false;
  const free = old.committed - old.used;
  return free >= MIN_FREE_BYTES && free >= MIN_FREE_SHARE * old.committed;
}

/** What the settler logs (at info) after each compaction, with `pauseMs`, `committedMiB` [before, after] and `usedMiB`. */
export const HEAP_SETTLED = 'Compacted the old space after a burst';

const oldSpace = (): OldSpace => {
  const s = v8.getHeapSpaceStatistics().find(x => x.space_name === 'old_space');
  return { committed: s?.space_size ?? 0, used: s?.space_used_size ?? 0 };
};

/** V8's `gc()`, obtained without the process being started with `--expose-gc`. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Gives back the old space a burst of work fragmented. V8 returns it only through a compacting
 * collection, which its memory reducer starts after a mark-compact finds committed memory grown
 * by a tenth since the reducer's last run (heap/memory-reducer.cc): after a burst that grew the
 * heap less (100,000 events mirrored at 50,000 instances: +13 MB of ~500), the holes stay
 * committed however long the process idles, and ordinary collections do not compact them. Once
 * the process is quiet, the settler runs that collection itself: one full collection with
 * `--compact-on-every-full-gc` on for its duration. It pauses the process (about 0.8 s for
 * 435 MiB of live objects on this machine), so it runs only when quiet, when the free room is
 * worth it, and at most once per interval; `intervalSeconds` 0 switches it off.
 */
export function startHeapSettler(options: {
  intervalSeconds: number;
  logger: { info(msg: string, meta?: object): void; warn(msg: string, meta?: object): void };
  now?: () => number;
  /** How often to look (default every 10 s). */
  checkMs?: number;
}): { stop(): void } {
  const intervalMs = options.intervalSeconds * 1000;
  if (intervalMs <= 0) return { stop: () => {} };
  const now = options.now ?? Date.now;
  let gc: (() => void) | undefined;
  let last = now();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  // what the old space holds alive, as its last full collection found: between full
  // collections V8 counts the dead as used, and a burst's garbage as much as its holes is what
  // a compaction gives back
  let live: number | undefined;
  const majors = new PerformanceObserver(list => {
    if (list.getEntries().some(e => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) {
      live = oldSpace().used;
    }
  });
  majors.observe({ entryTypes: ['gc'] });
  const timer = setInterval(() => {
    const since = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const before = oldSpace();
    const used = Math.min(before.used, live ?? before.used);
    if (!shouldSettle({ committed: before.committed, used }, since.utilization, now() - last, intervalMs)) return;
    try {
      gc ??= collector();
      const t0 = performance.now();
      v8.setFlagsFromString('--compact-on-every-full-gc');
      try {
        gc();
      } finally {
        v8.setFlagsFromString('--no-compact-on-every-full-gc');
      }
      const after = oldSpace();
      options.logger.info(HEAP_SETTLED, {
        pauseMs: Math.round(performance.now() - t0),
        committedMiB: [Math.round(before.committed / MiB), Math.round(after.committed / MiB)],
        usedMiB: Math.round(after.used / MiB),
      });
    } catch (err) {
      options.logger.warn('Compacting the old space failed; not trying again', { error: String(err) });
      clearInterval(timer);
    }
    last = now();
    elu = performance.eventLoopUtilization();
  }, options.checkMs ?? CHECK_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      majors.disconnect();
    },
  };
}
