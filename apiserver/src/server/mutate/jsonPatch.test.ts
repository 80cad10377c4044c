import { describe, expect, it } from '@jest/globals';
import { applyJsonPatch, JsonPatchError } from './jsonPatch';

describe('applyJsonPatch (RFC 6902, Appendix A)', () => {
  it.each([
    ['A.1 add an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    ['A.2 add an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['A.3 remove an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['A.4 remove an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['A.5 replace a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    ['A.6 move a value', { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }], { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } }],
    ['A.7 move an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
    ['A.8 test a value (success)', { baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }], { baz: 'qux', foo: ['a', 2, 'c'] }],
    ['A.10 add a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
    ['A.16 add an array value', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
    ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    ['copy', { a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } }],
    ['test compares objects regardless of key order', { a: { x: 1, y: 2 } }, [{ op: 'test', path: '/a', value: { y: 2, x: 1 } }], { a: { x: 1, y: 2 } }],
  ])('%s', (_name, doc, patch, result) => {
    const before = JSON.stringify(doc);
    expect(applyJsonPatch(doc, patch)).toEqual(result);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it.each([
    ['A.9 a failed test', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], 0],
    ['A.12 adding to a nonexistent target', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }], 0],
    ['A.13 an invalid operation', { foo: 'bar' }, [{ op: 'add', path: '/a', value: 1 }, { op: 'frobnicate', path: '/a' }], 1],
    ['A.15 comparing strings and numbers', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }], 0],
    ['removing a missing member', { a: 1 }, [{ op: 'remove', path: '/b' }], 0],
    ['an array index out of bounds', { a: [1] }, [{ op: 'replace', path: '/a/5', value: 2 }], 0],
    ['a missing value', { a: 1 }, [{ op: 'replace', path: '/a' }], 0],
    ['prototype pollution', {}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }], 0],
  ])('refuses %s, naming the operation', (_name, doc, patch, index) => {
    let error: unknown;
    try {
      applyJsonPatch(doc, patch as any);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonPatchError);
    expect((error as JsonPatchError).index).toBe(index);
    expect(({} as any).polluted).toBeUndefined();
  });
});
