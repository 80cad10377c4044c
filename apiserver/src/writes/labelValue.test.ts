import { describe, it, expect } from '@jest/globals';
import fc from 'fast-check';
import { isLabelValue, toLabelValue } from './labelValue';

describe('toLabelValue', () => {
  it.each([
    ['alice', 'alice'],
    ['user:default/alice', 'user_default_alice'],
    ['system:serviceaccount:team-a:ci', 'system_serviceaccount_team-a_ci'],
    ['alice@example.com', 'alice_example.com'],
    ['-x-', 'x'],
    ['::', ''],
  ])('%p → %p', (name, expected) => {
    expect(toLabelValue(name)).toBe(expected);
  });

  it('always yields a valid label value', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), name => {
        expect(isLabelValue(toLabelValue(name))).toBe(true);
      }),
    );
  });

  it('keeps valid label values as they are', () => {
    expect(toLabelValue('a'.repeat(63))).toBe('a'.repeat(63));
    expect(toLabelValue('a'.repeat(64))).toHaveLength(63);
  });
});
