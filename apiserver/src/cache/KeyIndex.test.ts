import { describe, expect, it } from '@jest/globals';
import { KeyIndex } from './KeyIndex';

describe('KeyIndex', () => {
  it('files one or many values under a key, each once, in order', () => {
    const index = new KeyIndex();
    index.add('k', 'a');
    index.add('k', 'a');
    expect(index.get('k')).toEqual(['a']);
    index.add('k', 'b');
    index.add('k', 'c');
    index.add('k', 'b');
    expect(index.get('k')).toEqual(['a', 'b', 'c']);
    expect(index.get('other')).toEqual([]);
  });

  it('forgets values, and the key with its last one; removing what is not there changes nothing', () => {
    const index = new KeyIndex();
    index.add('k', 'a');
    index.add('k', 'b');
    index.remove('k', 'x');
    index.remove('k', 'a');
    expect(index.get('k')).toEqual(['b']);
    index.add('k', 'c');
    expect(index.get('k')).toEqual(['b', 'c']);
    index.remove('k', 'b');
    index.remove('k', 'c');
    expect(index.get('k')).toEqual([]);
    index.remove('k', 'c');
    index.add('k', 'd');
    expect(index.get('k')).toEqual(['d']);
  });
});
