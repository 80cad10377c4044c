import { describe, expect, it } from '@jest/globals';
import { parseIncludeObject, parseListOptions } from './listOptions';
import { StatusError } from './StatusError';

const FIELDS = ['metadata.name', 'metadata.namespace'];
const statusOf = (query: string, forceWatch = false) => {
  try {
    parseListOptions(new URLSearchParams(query), FIELDS, forceWatch);
    return undefined;
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return e.status;
  }
};

describe('parseListOptions', () => {
  it.each([
    ['resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ['resourceVersion=5&resourceVersionMatch=Bogus', 'resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""'],
    ['resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['watch=true&sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['watch=true&resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ['watch=true&sendInitialEvents=false&resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
  ])('%s ⇒ 422 %j', (query, cause) => {
    const status = statusOf(query);
    expect(status).toMatchObject({ code: 422, reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'ListOptions' } });
    expect(status!.message).toMatch(/^ListOptions\.meta\.k8s\.io "" is invalid: /);
    expect(status!.message).toContain(cause);
  });

  it('wraps several causes in brackets', () => {
    const status = statusOf('resourceVersionMatch=Bogus');
    expect(status!.details!.causes).toHaveLength(2);
    expect(status!.message).toMatch(/is invalid: \[.*, .*\]$/);
  });

  it.each(['limit=abc', 'timeoutSeconds=1.5', 'labelSelector=a%3D%3D%3D', 'fieldSelector=spec.x%3D1'])('%s ⇒ 400', query => {
    expect(statusOf(query)).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it.each(['', 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan', 'resourceVersion=5&resourceVersionMatch=Exact', 'foo=bar'])(
    '%j is valid',
    query => expect(statusOf(query)).toBeUndefined(),
  );

  it('decodes booleans like apimachinery (present and empty is true, present and false still counts as set)', () => {
    const o = parseListOptions(new URLSearchParams('watch=&allowWatchBookmarks=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan'), FIELDS);
    expect(o).toMatchObject({ watch: true, allowWatchBookmarks: true, sendInitialEvents: false });
  });
});

describe('parseIncludeObject', () => {
  it.each([['', 'Metadata'], ['includeObject=Metadata', 'Metadata'], ['includeObject=Object', 'Object'], ['includeObject=None', 'None']])(
    '%j ⇒ %s',
    (q, expected) => expect(parseIncludeObject(new URLSearchParams(q))).toBe(expected),
  );
  it('rejects other values with a 400', () => {
    expect(() => parseIncludeObject(new URLSearchParams('includeObject=Bad'))).toThrow(
      `Unable to convert to Table as requested: includeObject: Invalid value: "Bad": must be 'Metadata', 'Object', 'None', or empty`,
    );
  });
});
