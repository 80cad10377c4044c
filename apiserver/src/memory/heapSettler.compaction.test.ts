import { afterEach, describe, expect, it } from '@jest/globals';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startHeapSettler } from './heapSettler';

const MiB = 1024 * 1024;
const oldSpace = () => v8.getHeapSpaceStatistics().find(s => s.space_name === 'old_space')!;

describe('startHeapSettler (a real V8 heap)', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('gives back the old space a burst left fragmented, once the process is quiet', async () => {
    // a burst: objects that live long enough to reach the old space, five of six then dropped
    const kept: Array<object | null> = [];
    for (let i = 0; i < 1_500_000; i++) kept.push({ i, s: `x${i}`, a: [i, i + 1] });
    await new Promise(r => setTimeout(r, 50)); // scavenges promote what survives
    for (let i = 0; i < kept.length; i++) if (i % 6) kept[i] = null;
    const compacted = new Promise<Record<string, any>>(resolve => {
      const settler = startHeapSettler({
        intervalSeconds: 0.01,
        checkMs: 100,
        logger: { info: (_msg, meta) => resolve(meta as Record<string, any>), warn: () => {} },
      });
      stop = settler.stop;
    });
    // an ordinary full collection, as the burst's growth would have started one: it frees the
    // dead but compacts nothing, and tells the settler what is alive
    v8.setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const fragmented = oldSpace();
    expect(fragmented.space_size - fragmented.space_used_size).toBeGreaterThan(64 * MiB);
    const meta = await compacted;
    const [before, after] = meta.committedMiB as number[];
    expect(before - after).toBeGreaterThanOrEqual(64);
    expect(oldSpace().space_size).toBeLessThan(before * MiB);
    expect(kept.filter(Boolean)).toHaveLength(250_000);
  }, 60_000);
});
