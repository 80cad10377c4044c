import { epochNow } from '../client/epochNow';
import { recordGcPauses, type GcPauseLog, type GcPauses } from '../system/gcPauses';

const describe = (who: string, p: GcPauses) => {
  const kinds = Object.entries(p.byKind).map(([kind, n]) => `${n} ${kind}`);
  return `${who} ${p.count}${p.count > 0 ? ` (${kinds.join(', ')}; longest ${p.maxMs.toFixed(1)} ms)` : ''}`;
};

/**
 * Starts recording the collection pauses of the three processes a Backstage request crosses
 * (the backend, the bench process holding the emulator and its aggregation layer, the
 * apiserver); `stop()` says how many of at least 10 ms each had while a figure was timed, so
 * that a tail can be told from the code it is measured on. A child's pause in the last
 * milliseconds may still be on its way through the pipe: the children's counts are at least.
 */
export function pausesDuring(children: { backend: { gcPauses: GcPauseLog }; apiserver: { gcPauses: GcPauseLog } }): { stop(): string } {
  const from = epochNow();
  const own = recordGcPauses();
  return {
    stop() {
      const to = epochNow();
      return `GC pauses >= 10 ms meanwhile: ${[
        describe('backend', children.backend.gcPauses.between(from, to)),
        describe('emulator (bench process)', own.stop()),
        describe('apiserver', children.apiserver.gcPauses.between(from, to)),
      ].join(', ')}`;
    },
  };
}
