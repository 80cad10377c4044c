import { describe, expect, it } from '@jest/globals';
import { matchesFields, parseFieldSelector, requiresExactMatch, validateFieldSelector } from './fieldSelector';

describe('field selectors', () => {
  const fields = { 'metadata.name': 'foo', 'metadata.namespace': 'a' };

  it.each([
    ['metadata.name=foo', true],
    ['metadata.name==foo', true],
    ['metadata.name!=foo', false],
    ['metadata.name=bar', false],
    ['metadata.name=foo,metadata.namespace=a', true],
    ['metadata.name=foo,metadata.namespace!=a', false],
    ['', true],
  ])('%j matches foo in a: %s', (selector, expected) => {
    expect(matchesFields(parseFieldSelector(selector), fields)).toBe(expected);
  });

  it('reads escaped separators as part of the value', () => {
    expect(parseFieldSelector('metadata.name=a\\,b')).toEqual([{ field: 'metadata.name', operator: '=', value: 'a,b' }]);
  });

  it('finds the pinned name', () => {
    expect(requiresExactMatch(parseFieldSelector('metadata.namespace=a,metadata.name==x'), 'metadata.name')).toBe('x');
    expect(requiresExactMatch(parseFieldSelector('metadata.name!=x'), 'metadata.name')).toBeUndefined();
  });

  it('rejects terms without an operator', () => {
    expect(() => parseFieldSelector('metadata.name')).toThrow("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
  });

  it('rejects unknown fields with the kube message', () => {
    expect(() => validateFieldSelector(parseFieldSelector('spec.foo=x'), ['metadata.name', 'metadata.namespace'])).toThrow(
      '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});
