import { describe, expect, it } from '@jest/globals';
import { jsonTextDepth, MAX_NESTING_DEPTH, valueDepth } from './nestingDepth';

describe('nesting depth of request bodies', () => {
  it.each([
    ['1', 0],
    ['{}', 1],
    ['[[],{"a":[1]}]', 3],
    // brackets inside strings, escaped quotes and backslashes do not count
    ['{"a":"[[[{{{","b":"\\"[[","c":"\\\\"}', 1],
    ['["\\\\\\"[",[1]]', 2],
  ])('jsonTextDepth(%s) = %i, as valueDepth of the parsed value', (text, depth) => {
    expect(jsonTextDepth(text)).toBe(depth);
    expect(valueDepth(JSON.parse(text))).toBe(depth);
  });

  it('measures nesting far beyond what recursion could (a million levels)', () => {
    const text = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonTextDepth(text)).toBe(1_000_000);
    expect(valueDepth(JSON.parse(text))).toBe(1_000_000);
  });

  it('keeps the limit where JSON.stringify and recursive walks are still safe', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(MAX_NESTING_DEPTH)}1${'}'.repeat(MAX_NESTING_DEPTH)}`);
    expect(() => JSON.stringify(deep)).not.toThrow();
  });
});
