import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { applyMergePatch, createMergePatch } from './mergePatch';

describe('applyMergePatch', () => {
  // the test cases of RFC 7386, Appendix A
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result);
  });

  it('does not modify its inputs', () => {
    const target = { a: { b: 1 } };
    applyMergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

describe('createMergePatch', () => {
  // JSON without nulls: what operator objects are
  const json = fc.letrec(tie => ({
    value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.array(tie('value'), { maxLength: 3 }), tie('object')),
    object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'spec', 'metadata'), tie('value'), { maxKeys: 4 }),
  }));

  it('is undone by applyMergePatch: apply(original, create(original, modified)) = modified', () => {
    fc.assert(
      fc.property(json.object, json.object, (original, modified) => {
        expect(applyMergePatch(original, createMergePatch(original, modified))).toEqual(modified);
      }),
    );
  });

  it('is empty when nothing changed, and names only what changed', () => {
    const obj = { spec: { replicas: 3, image: 'mariadb:11.4' }, metadata: { labels: { a: '1' } } };
    expect(createMergePatch(obj, structuredClone(obj))).toEqual({});
    expect(createMergePatch(obj, { ...obj, spec: { ...obj.spec, replicas: 5 }, metadata: {} })).toEqual({ spec: { replicas: 5 }, metadata: { labels: null } });
  });
});
