// Preloaded (`--require`) into the apiserver and the Backstage backend by `yarn bench`: each
// garbage-collection pause of 5 ms or more is written to stderr as one line (when it began, in
// epoch ms, how long, V8's kind), which the harness reads (GcPauseLog in gcPauses.ts), so that a
// figure can say which process paused while it was timed. Plain CommonJS: it is loaded before
// Backstage's TypeScript transform.
const { PerformanceObserver, performance, constants } = require('node:perf_hooks');

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    if (entry.duration >= 5) {
      const kind = KINDS[entry.detail && entry.detail.kind] || 'other';
      process.stderr.write(`[bench-gc] ${(performance.timeOrigin + entry.startTime).toFixed(1)} ${entry.duration.toFixed(1)} ${kind}\n`);
    }
  }
}).observe({ entryTypes: ['gc'] });
