import { describe, it, expect } from '@jest/globals';
import fc from 'fast-check';
import { compareQuantities, isQuantity, parseQuantity } from './quantity';

const nanos = (v: unknown) => parseQuantity(v)?.nanos;
const GI = 1024n ** 3n;
const ONE = 1_000_000_000n;

describe('parseQuantity', () => {
  it.each<[unknown, bigint]>([
    ['10Gi', 10n * GI * ONE],
    ['1.5Gi', (3n * GI * ONE) / 2n],
    ['500M', 500_000_000n * ONE],
    ['100m', 100_000_000n],
    ['0.1', 100_000_000n],
    ['1', ONE],
    [2, 2n * ONE],
    ['1e3', 1000n * ONE],
    ['1E-3', 1_000_000n],
    ['.5', 500_000_000n],
    ['5.', 5n * ONE],
    ['1n', 1n],
    ['2u', 2000n],
    ['1k', 1000n * ONE],
    ['1Ki', 1024n * ONE],
    ['-1', -ONE],
    ['+3', 3n * ONE],
    // Below a nano-unit rounds up, like resource.Quantity.
    ['0.1n', 1n],
  ])('%p is %p nano-units', (text, expected) => {
    expect(nanos(text)).toBe(expected);
  });

  it.each([
    '10GB',
    'Gi',
    '',
    '1.2.3',
    '10 Gi',
    '1Kb',
    'ten',
    '1e',
    '0x10',
    null,
    {},
    Number.NaN,
  ])('rejects %p', text => {
    expect(parseQuantity(text)).toBeUndefined();
    expect(isQuantity(text)).toBe(false);
  });

  it.each([
    ['1Gi', '1024Mi', 0],
    ['1G', '1Gi', -1],
    ['100m', '0.1', 0],
    ['2', '1500m', 1],
    ['10Gi', '5Gi', 1],
  ])('compares %s with %s as %i', (a, b, expected) => {
    expect(compareQuantities(parseQuantity(a)!, parseQuantity(b)!)).toBe(
      expected,
    );
  });

  it('orders integer Mi quantities like the integers', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (a, b) => {
        const qa = parseQuantity(`${a}Mi`)!;
        const qb = parseQuantity(`${b}Mi`)!;
        expect(compareQuantities(qa, qb)).toBe(Math.sign(a - b));
      }),
    );
  });

  it('parses decimal strings to the value of their digits', () => {
    fc.assert(
      fc.property(fc.nat(999_999), fc.nat(999), (whole, milli) => {
        const text = `${whole}.${String(milli).padStart(3, '0')}`;
        expect(nanos(text)).toBe(
          BigInt(whole) * ONE + BigInt(milli) * 1_000_000n,
        );
      }),
    );
  });
});
