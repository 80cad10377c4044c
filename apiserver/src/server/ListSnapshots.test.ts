import { describe, expect, it } from '@jest/globals';
import { decodeContinue, encodeContinue, ListSnapshots } from './ListSnapshots';

describe('ListSnapshots', () => {
  it('round-trips tokens and rejects garbage with a 400', () => {
    const t = { rv: '7', s: 'abc', o: 2 };
    expect(decodeContinue(encodeContinue(t))).toEqual(t);
    expect(() => decodeContinue('garbage')).toThrow(/^invalid continue token: /);
    expect(() => decodeContinue(Buffer.from('{"v":"x"}').toString('base64url'))).toThrow(/^invalid continue token: /);
  });

  it('expires snapshots after the TTL with a 410', () => {
    let now = 0;
    const s = new ListSnapshots<number>({ ttlMs: 1000, now: () => now });
    const id = s.save('k', '7', [1, 2, 3]);
    expect(s.resume({ rv: '7', s: id, o: 1 }, 'k').items).toEqual([1, 2, 3]);
    now = 1001;
    expect(() => s.resume({ rv: '7', s: id, o: 1 }, 'k')).toThrow(/too old to display a consistent list result/);
  });

  it('drops the oldest snapshot beyond max', () => {
    const s = new ListSnapshots<number>({ max: 1 });
    const first = s.save('k', '1', []);
    s.save('k', '2', []);
    expect(() => s.resume({ rv: '1', s: first, o: 0 }, 'k')).toThrow(/too old/);
    expect(s.findAt('k', '2')).toEqual([]);
  });
});
