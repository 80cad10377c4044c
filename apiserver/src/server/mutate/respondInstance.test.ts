import { describe, expect, it } from '@jest/globals';
import { warningHeaders } from './respondInstance';

/** What a client decodes from a header value Node sent (its bytes, read as UTF-8). */
const received = (value: string) => Buffer.from(value, 'latin1').toString('utf8');

describe('warningHeaders', () => {
  it('quotes as k8s.io/apiserver does', () => {
    expect(warningHeaders(['unknown field "spec.foo"', 'a\\b'])).toEqual(['299 - "unknown field \\"spec.foo\\""', '299 - "a\\\\b"']);
  });

  it('sends non-Latin-1 text as UTF-8 bytes and control characters as spaces, so Node never refuses the header', () => {
    const [value] = warningHeaders(['unknown field "spec.ünï😀\r\nX-Injected: 1\u0000"']);
    expect(value).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    expect(received(value)).toBe('299 - "unknown field \\"spec.ünï😀  X-Injected: 1 \\""');
  });

  it('cuts each warning to 256 characters once all of them pass 4096, as the kube recorder does', () => {
    const long = 'x'.repeat(1000);
    expect(warningHeaders([long, 'short']).map(v => v.length)).toEqual([1008, 13]);
    const many = warningHeaders(Array.from({ length: 10 }, () => long));
    expect(many.every(v => v === `299 - "${'x'.repeat(256)}..."`)).toBe(true);
  });
});
