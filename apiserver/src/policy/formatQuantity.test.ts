import { describe, expect, it } from '@jest/globals';
import { parseQuantity } from '../writes/quantity';
import { formatQuantity } from './formatQuantity';

describe('formatQuantity', () => {
  it.each([
    ['0', 'binary', '0'],
    ['45Gi', 'binary', '45Gi'],
    ['1024Mi', 'binary', '1Gi'],
    ['1536Mi', 'binary', '1536Mi'],
    ['10.5Gi', 'binary', '10752Mi'],
    ['2Ti', 'binary', '2Ti'],
    ['500M', 'binary', '500M'],
    ['1000', 'binary', '1k'],
    ['1001', 'binary', '1001'],
    ['4', 'decimal', '4'],
    ['4000m', 'decimal', '4'],
    ['1.5', 'decimal', '1500m'],
    ['100m', 'decimal', '100m'],
    ['1u', 'decimal', '1u'],
    ['5n', 'decimal', '5n'],
    ['-2Gi', 'binary', '-2Gi'],
  ] as const)('%s (%s) prints as %s', (input, style, expected) => {
    expect(formatQuantity(parseQuantity(input)!.nanos, style)).toBe(expected);
  });
});
