import path from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** A process's collections over a while: how many paused it at least `minMs` (and of which kind), the longest, all. */
export interface GcPauses {
  count: number;
  maxMs: number;
  totalMs: number;
  /** The pauses of at least `minMs` by V8's kind (`minor`: a scavenge, `major`: mark-compact…). */
  byKind: Record<string, number>;
}

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** V8's kind of a collection (`detail.kind` of a `gc` performance entry), by name. */
const kindName = (kind: number | undefined) => (kind !== undefined && KINDS[kind]) || 'other';

/** The kind of a `gc` performance entry, by name. */
export function gcKind(entry: PerformanceEntry): string {
  return kindName((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind);
}

/** Adds one pause to `into`. */
function add(into: GcPauses, ms: number, kind: string, minMs: number): void {
  into.totalMs += ms;
  into.maxMs = Math.max(into.maxMs, ms);
  if (ms >= minMs) {
    into.count += 1;
    into.byKind[kind] = (into.byKind[kind] ?? 0) + 1;
  }
}

const none = (): GcPauses => ({ count: 0, maxMs: 0, totalMs: 0, byKind: {} });

/**
 * Records this process's garbage-collection pauses until `stop()`: the bench process hosts the
 * emulator, whose aggregation layer every backend request to the apiserver goes through, so a
 * pause here is in a tail the apiserver and backend are not to blame for.
 */
export function recordGcPauses(minMs = 10): { stop(): GcPauses } {
  const pauses = none();
  const observer = new PerformanceObserver(list => {
    for (const entry of list.getEntries()) add(pauses, entry.duration, gcKind(entry), minMs);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      return { ...pauses, byKind: { ...pauses.byKind } };
    },
  };
}

/** The preload that makes a child process log its pauses (see gcPauseLog.cjs). */
export const GC_PAUSE_LOG_PRELOAD = path.join(__dirname, 'gcPauseLog.cjs');

/** A child process's pauses, read from the lines gcPauseLog.cjs writes to its stderr. */
export class GcPauseLog {
  private readonly pauses: Array<{ at: number; ms: number; kind: string }> = [];
  private rest = '';

  /** Reads a chunk of the child's stderr. */
  read(chunk: Buffer | string): void {
    const lines = (this.rest + String(chunk)).split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^\[bench-gc\] (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+)$/.exec(line);
      if (m) this.pauses.push({ at: Number(m[1]), ms: Number(m[2]), kind: kindName(Number(m[3])) });
    }
    // a long run: keep the latest
    if (this.pauses.length > 100_000) this.pauses.splice(0, 50_000);
  }

  /** Pauses that began between two {@link epochNow} times (see {@link GcPauses}). */
  between(from: number, to: number, minMs = 10): GcPauses {
    const out = none();
    for (const p of this.pauses) if (p.at >= from && p.at <= to) add(out, p.ms, p.kind, minMs);
    return out;
  }
}
