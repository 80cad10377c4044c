import { describe, it, expect } from '@jest/globals';
import { compareVersions, majorOf, parseVersion } from './version';

describe('parseVersion', () => {
  it.each<[unknown, number[] | undefined]>([
    ['11.4', [11, 4]],
    ['8.4.3', [8, 4, 3]],
    ['7', [7]],
    ['v7.0.15', undefined],
    ['11.4-management', undefined],
    ['11..4', undefined],
    ['.4', undefined],
    ['11.', undefined],
    ['latest', undefined],
    ['', undefined],
    [' 11.4', undefined],
    ['11.4\n', undefined],
    // Parts beyond what a number holds exactly cannot be compared.
    ['1.99999999999999999999', undefined],
    [11.4, undefined],
    [undefined, undefined],
  ])('%j → %j', (value, parts) => {
    expect(parseVersion(value)).toEqual(parts);
  });
});

describe('compareVersions', () => {
  it.each<[string, string, -1 | 0 | 1]>([
    ['11.4', '11.8', -1],
    ['11.8', '11.4', 1],
    ['10.11', '10.6', 1],
    ['10.6', '10.11', -1],
    ['11.4', '11.4', 0],
    // Missing parts count as 0.
    ['11.4', '11.4.0', 0],
    ['11.4.1', '11.4', 1],
    ['11.4', '11.4.1', -1],
    ['9', '10', -1],
    ['8.19.0', '9.4.3', -1],
    // Anything unparseable compares as equal: no refusal is invented for it.
    ['latest', '11.4', 0],
    ['11.4', 'latest', 0],
  ])('%s vs %s → %d', (a, b, order) => {
    expect(compareVersions(a, b)).toBe(order);
  });
});

describe('majorOf', () => {
  it.each<[string, number | undefined]>([
    ['7.0.15', 7],
    ['10.11', 10],
    ['9', 9],
    ['v7', undefined],
  ])('%s → %s', (version, major) => {
    expect(majorOf(version)).toBe(major);
  });
});
