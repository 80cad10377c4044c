import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { GC_PAUSE_LOG_PRELOAD, GcPauseLog } from './gcPauses';

describe('GcPauseLog', () => {
  it('reads the preload lines across chunks and counts the pauses of a window', () => {
    const log = new GcPauseLog();
    // V8's kinds as numbers: 1 a scavenge (minor), 4 mark-compact (major)
    log.read('{"level":"info"}\n[bench-gc] 1000.0 12.5 1\n[bench-g');
    log.read(Buffer.from('c] 2000.5 6.0 4\nnoise [bench-gc] 2500 50 4\n[bench-gc] 3000.0 30.25 4\n'));
    expect(log.between(0, 5000)).toEqual({ count: 2, maxMs: 30.25, totalMs: 48.75, byKind: { minor: 1, major: 1 } });
    expect(log.between(1500, 2500)).toEqual({ count: 0, maxMs: 6, totalMs: 6, byKind: {} });
    expect(log.between(4000, 5000)).toEqual({ count: 0, maxMs: 0, totalMs: 0, byKind: {} });
  });

  it('is fed by the preload: a process that collects its heap logs the pause', () => {
    // A full collection of a heap with a few million live objects takes well over 5 ms. The
    // script's own observer, registered after the preload's, hears of the pause after it: the
    // process ends then, once the preload has written its line (an idle timer keeps it alive
    // until the observers are told, which Node does after the collection, not within it).
    const script = [
      "const { PerformanceObserver } = require('node:perf_hooks');",
      'const alive = setInterval(() => undefined, 60000);',
      'const keep = Array.from({ length: 3e6 }, (_, i) => ({ i }));',
      'const seen = new PerformanceObserver(list => { if (list.getEntries().some(e => e.duration >= 5)) { seen.disconnect(); clearInterval(alive); console.log(keep.length); } });',
      "seen.observe({ entryTypes: ['gc'] });",
      'global.gc();',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--expose-gc', '--require', GC_PAUSE_LOG_PRELOAD, '-e', script], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.status).toBe(0);
    const log = new GcPauseLog();
    log.read(run.stderr);
    // global.gc() is a full collection
    expect(log.between(0, Date.now() + 1000, 5).byKind.major).toBeGreaterThan(0);
  });
});
