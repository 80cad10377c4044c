import { describe, expect, it } from '@jest/globals';
import { MAX_LISTED_MEMBERS, ordinalPods } from './members';

describe('ordinalPods: the pods a StatefulSet of `count` replicas names', () => {
  it('names them <set>-<i> from `from`, with the headless Service', () => {
    expect(ordinalPods('db', 2, 'db-internal', 1)).toEqual([
      { pod: 'db-1', headless: 'db-internal' },
      { pod: 'db-2', headless: 'db-internal' },
    ]);
  });

  it('lists none for counts that are no count, and at most MAX_LISTED_MEMBERS for huge ones (a hostile dry run once made it throw: a 500)', () => {
    for (const count of [-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(ordinalPods('db', count)).toEqual([]);
    expect(ordinalPods('db', 1e308)).toHaveLength(MAX_LISTED_MEMBERS);
    expect(ordinalPods('db', 2 ** 31 - 1)).toHaveLength(MAX_LISTED_MEMBERS);
    expect(ordinalPods('db', 2.7)).toHaveLength(2);
  });
});
