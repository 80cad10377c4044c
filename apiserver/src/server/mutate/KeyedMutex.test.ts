import { describe, expect, it } from '@jest/globals';
import { KeyedMutex } from './KeyedMutex';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

describe('KeyedMutex', () => {
  it('runs work of one key one at a time, in order, even when some fails', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let running = 0;
    const job = (id: number, fail = false) =>
      mutex.run('a', async () => {
        running++;
        expect(running).toBe(1);
        log.push(`start ${id}`);
        await sleep(5);
        log.push(`end ${id}`);
        running--;
        if (fail) throw new Error(`job ${id}`);
        return id;
      });
    const results = await Promise.allSettled([job(1), job(2, true), job(3)]);
    expect(results.map(r => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(mutex.size()).toBe(0);
  });

  it('lets different keys run concurrently', async () => {
    const mutex = new KeyedMutex();
    let concurrent = 0;
    let max = 0;
    const job = (key: string) =>
      mutex.run(key, async () => {
        max = Math.max(max, ++concurrent);
        await sleep(5);
        concurrent--;
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(max).toBe(3);
  });
});
