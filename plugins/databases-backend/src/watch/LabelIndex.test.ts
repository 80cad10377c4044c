import { describe, expect, it } from '@jest/globals';
import { LabelIndex } from './LabelIndex';

describe('LabelIndex', () => {
  it('finds keys having every pair, and forgets replaced and deleted labels', () => {
    const index = new LabelIndex();
    index.set('a/one', { 'backstage.io/kubernetes-id': 'orders', tier: 'gold' });
    index.set('a/two', { 'backstage.io/kubernetes-id': 'orders' });
    index.set('b/three', { 'backstage.io/kubernetes-id': 'billing', tier: 'gold' });
    index.set('b/four', undefined);

    expect(index.keysWith([['backstage.io/kubernetes-id', 'orders']]).sort()).toEqual(['a/one', 'a/two']);
    expect(index.keysWith([['tier', 'gold'], ['backstage.io/kubernetes-id', 'orders']])).toEqual(['a/one']);
    expect(index.keysWith([['tier', 'silver']])).toEqual([]);
    expect(index.keysWith([['tier', 'gold'], ['nope', 'x']])).toEqual([]);

    // relabelled: found under the new value only
    index.set('a/one', { 'backstage.io/kubernetes-id': 'billing' });
    expect(index.keysWith([['backstage.io/kubernetes-id', 'orders']])).toEqual(['a/two']);
    expect(index.keysWith([['backstage.io/kubernetes-id', 'billing']]).sort()).toEqual(['a/one', 'b/three']);
    expect(index.keysWith([['tier', 'gold']])).toEqual(['b/three']);

    index.delete('a/two');
    expect(index.keysWith([['backstage.io/kubernetes-id', 'orders']])).toEqual([]);
  });

  it('matches an empty value only where the label is there with that empty value', () => {
    const index = new LabelIndex();
    index.set('x/empty', { flag: '' });
    index.set('x/none', {});
    expect(index.keysWith([['flag', '']])).toEqual(['x/empty']);
  });
});
