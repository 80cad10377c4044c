import { describe, expect, it } from '@jest/globals';
import { acceptsGzip } from './acceptsGzip';

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, GZIP;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    [['identity', 'gzip'], true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['deflate, br', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false],
    ['gzipped', false],
  ] as const)('%j → %s', (header, expected) => {
    expect(acceptsGzip(header as string | string[] | undefined)).toBe(expected);
  });
});
