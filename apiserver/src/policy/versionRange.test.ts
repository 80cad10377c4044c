import { describe, expect, it } from '@jest/globals';
import { parseVersionRange, versionInRange } from './versionRange';

function range(text: string) {
  const parsed = parseVersionRange(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.range;
}

describe('versionInRange', () => {
  it.each([
    // [range, version, expected]
    ['>=10.11 <12', '10.11', true],
    ['>=10.11 <12', '10.11.9', true],
    ['>=10.11 <12', '11.4', true],
    ['>=10.11 <12', '10.6', false],
    ['>=10.11 <12', '10.10.99', false],
    ['>=10.11 <12', '12', false],
    ['>=10.11 <12', '12.0.1', false],
    ['>= 10.11  < 12', '11.8', true],
    ['11.4', '11.4', true],
    ['11.4', '11.4.2', true],
    ['11.4', '11.40', false],
    ['=11.4', '11.5', false],
    ['==8.0.36', '8.0.36', true],
    ['8.0.36', '8.0.37', false],
    ['<=11.4', '11.4.9', true],
    ['<=11.4', '11.5', false],
    ['>11.4', '11.4.2', false],
    ['>11.4', '11.5', true],
    ['<11.4', '11.3.99', true],
    ['<11.4', '11.4.0', false],
    ['>=8.0', '8', true],
    ['>=8.1', '8', false],
    ['7.x', '7.2', true],
    ['7.*', '8.0', false],
    ['*', '1.2.3', true],
    ['7.2 || >=8.0.36', '7.2.4', true],
    ['7.2 || >=8.0.36', '8.0.35', false],
    ['7.2 || >=8.0.36', '8.4', true],
    ['>=v8', 'v8.1', true],
    ['>=1.0', 'latest', false],
    ['*', 'abc', false],
    ['>=1.0', '', false],
  ])('%s contains %s: %s', (text, version, expected) => {
    expect(versionInRange(version, range(text))).toBe(expected);
  });
});

describe('parseVersionRange', () => {
  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['~11.4', /"~11.4" is not a version comparator/],
    ['^8', /"\^8" is not a version comparator/],
    ['>=10.11 <twelve', /"<twelve" is not a version comparator/],
    ['11.4 ||', /empty alternative/],
    ['>=*', /wildcard cannot be compared with >=/],
    ['11.4-beta', /"11.4-beta" is not a version comparator/],
  ])('refuses %j', (text, error) => {
    const parsed = parseVersionRange(text);
    expect('error' in parsed && parsed.error).toMatch(error);
  });

  it('keeps the text as written, trimmed, for messages', () => {
    expect(range('  >=10.11 <12 ').text).toBe('>=10.11 <12');
  });
});
