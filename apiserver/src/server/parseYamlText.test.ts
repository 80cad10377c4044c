import { describe, expect, it } from '@jest/globals';
import { parseYamlText } from './parseYamlText';

const tooDeep = () => new Error('too deep');
const undecodable = (message: string) => new Error(`undecodable: ${message}`);
const parse = (text: string) => parseYamlText(text, tooDeep, undecodable);

describe('parseYamlText', () => {
  it('reads JSON as JSON: a key given twice is its last', () => {
    expect(parse(' {"a": 1, "a": 2, "b": [1, "x", null]}')).toEqual({ a: 2, b: [1, 'x', null] });
    expect(parse('[1, {"a": true}]')).toEqual([1, { a: true }]);
  });

  it('reads anything else as YAML, which refuses a key given twice', () => {
    expect(parse('a: 1\nb:\n  - x\n')).toEqual({ a: 1, b: ['x'] });
    expect(parse('{a: 1, b: [x, y]}')).toEqual({ a: 1, b: ['x', 'y'] });
    expect(() => parse('{"a": 1, "a": 2} # a comment makes it YAML')).toThrow(/^undecodable: Map keys must be unique/);
    expect(() => parse('a: [1, 2\n')).toThrow(/^undecodable: /);
  });

  it('refuses nesting past the limit, JSON or YAML', () => {
    expect(() => parse(`{"a": ${'['.repeat(101)}${']'.repeat(101)}}`)).toThrow('too deep');
    expect(() => parse(`a: ${'['.repeat(101)}${']'.repeat(101)}\n`)).toThrow('too deep');
    expect(parse(`{"a": ${'['.repeat(99)}${']'.repeat(99)}}`)).toBeDefined();
  });
});
