// Preloaded (`--require`) into the apiserver and the Backstage backend by `yarn bench`: each
// garbage-collection pause of 5 ms or more is written to stderr as one line (when it began, in
// epoch ms, how long, V8's kind as a number), which the harness reads and names (GcPauseLog in
// gcPauses.ts), so that a figure can say which process paused while it was timed. Plain
// CommonJS: it is loaded before Backstage's TypeScript transform.
const { PerformanceObserver, performance } = require('node:perf_hooks');

new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    if (entry.duration >= 5) {
      const kind = entry.detail ? entry.detail.kind : -1;
      process.stderr.write(`[bench-gc] ${(performance.timeOrigin + entry.startTime).toFixed(1)} ${entry.duration.toFixed(1)} ${kind}\n`);
    }
  }
}).observe({ entryTypes: ['gc'] });
