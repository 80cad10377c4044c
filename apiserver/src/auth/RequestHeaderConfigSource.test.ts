import { describe, expect, it } from '@jest/globals';
import { createTestCA } from './testCertificates';
import { RequestHeaderConfigSource } from './RequestHeaderConfigSource';
import { parseRequestHeaderConfig } from './RequestHeaderConfig';

describe('parseRequestHeaderConfig', () => {
  it('reads JSON arrays, lower-cases header names, treats null/absent as empty', () => {
    const c = parseRequestHeaderConfig({
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-uid-headers': 'null',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
    expect(c).toMatchObject({
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['x-remote-user'],
      uidHeaders: [],
      groupHeaders: ['x-remote-group'],
      extraHeaderPrefixes: ['x-remote-extra-'],
      requestHeaderCAs: [],
      clientCAs: [],
    });
  });

  it.each([
    ['requestheader-allowed-names', 'front-proxy-client'],
    ['requestheader-group-headers', '[1]'],
    [
      'requestheader-client-ca-file',
      '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----',
    ],
  ])('names the bad key %s', (key, value) => {
    expect(() => parseRequestHeaderConfig({ [key]: value })).toThrow(key);
  });

  it('flag overrides win', async () => {
    const ca = await createTestCA('x');
    const c = parseRequestHeaderConfig(
      { 'requestheader-allowed-names': '["a"]' },
      { allowedNames: [], requestHeaderClientCaPem: ca.cert },
    );
    expect(c.allowedNames).toEqual([]);
    expect(c.requestHeaderCAs).toHaveLength(1);
  });
});

describe('RequestHeaderConfigSource', () => {
  it('is not loaded until read, keeps the last good config on failure, reports problems', async () => {
    const ca1 = await createTestCA('ca1');
    const ca2 = await createTestCA('ca2');
    let data: Record<string, string> | Error = new Error('forbidden');
    const changes: number[] = [];
    const source = new RequestHeaderConfigSource({
      read: async () => {
        if (data instanceof Error) throw data;
        return data;
      },
    });
    source.onChange(c => changes.push(c.requestHeaderCAs.length));
    expect(await source.refresh()).toBe(false);
    expect(source.current()).toBeUndefined();
    expect(source.problems()[0]).toContain('forbidden');

    data = { 'requestheader-client-ca-file': ca1.cert };
    expect(await source.refresh()).toBe(true);
    expect(source.problems()).toEqual([]);
    const first = source.current()!;
    await source.refresh();
    expect(changes).toEqual([1]); // unchanged data: no change event

    data = { 'requestheader-client-ca-file': `${ca1.cert}\n${ca2.cert}` };
    await source.refresh();
    expect(source.current()!.requestHeaderCAs).toHaveLength(2);
    expect(changes).toEqual([1, 2]);

    data = new Error('connection refused');
    await source.refresh();
    expect(source.current()!.requestHeaderCAs).toHaveLength(2);
    expect(source.current()).not.toBe(first);
    expect(source.problems()[0]).toContain('connection refused');
  });
});
