import { describe, expect, it } from '@jest/globals';
import { equalitySelector } from './equalitySelector';

describe('equalitySelector', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['backstage.io/kubernetes-id=orders', [['backstage.io/kubernetes-id', 'orders']]],
    ['a==b, c=d', [['a', 'b'], ['c', 'd']]],
    ['app=', [['app', '']]],
  ])('%s → %j', (selector, expected) => {
    expect(equalitySelector(selector)).toEqual(expected);
  });

  it.each(['a!=b', 'a in (b,c)', '!a', 'a', 'a=b,c notin (d)', 'tier>2'])('leaves %s to the cluster', selector => {
    expect(equalitySelector(selector)).toBeUndefined();
  });
});
