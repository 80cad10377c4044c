import { describe, it, expect } from '@jest/globals';
import type { KubeObject } from '../adapters/types';
import { opaqueSecret, secretValue } from './secretValue';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const secret = (fields: Partial<KubeObject>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'orders-password', namespace: 'team-a' },
  ...fields,
});

describe('secretValue', () => {
  it('decodes base64 data', () => {
    expect(
      secretValue(secret({ data: { password: b64('p@ss:w/rd') } }), 'password'),
    ).toBe('p@ss:w/rd');
  });

  it('prefers stringData, as the API server would fold it over data', () => {
    expect(
      secretValue(
        secret({
          stringData: { password: 'new' },
          data: { password: b64('old') },
        }),
        'password',
      ),
    ).toBe('new');
  });

  it('falls back to data when stringData lacks the key or holds no string', () => {
    const data = { password: b64('from-data') };
    expect(
      secretValue(secret({ stringData: { other: 'x' }, data }), 'password'),
    ).toBe('from-data');
    expect(
      secretValue(secret({ stringData: { password: 42 }, data }), 'password'),
    ).toBe('from-data');
  });

  it('is undefined for a missing Secret, key or non-string value', () => {
    expect(secretValue(undefined, 'password')).toBeUndefined();
    expect(secretValue(secret({}), 'password')).toBeUndefined();
    expect(
      secretValue(secret({ data: { other: b64('x') } }), 'password'),
    ).toBeUndefined();
    expect(
      secretValue(secret({ data: { password: 42 } }), 'password'),
    ).toBeUndefined();
  });

  it('keeps an empty value (an empty password is not a missing one)', () => {
    expect(secretValue(secret({ data: { password: '' } }), 'password')).toBe(
      '',
    );
    expect(
      secretValue(secret({ stringData: { password: '' } }), 'password'),
    ).toBe('');
  });
});

describe('opaqueSecret', () => {
  it('is an Opaque Secret of string data in the namespace, labelled', () => {
    expect(
      opaqueSecret('orders-password', 'team-a', { a: 'b' }, { password: 'x' }),
    ).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'orders-password',
        namespace: 'team-a',
        labels: { a: 'b' },
      },
      type: 'Opaque',
      stringData: { password: 'x' },
    });
  });

  it('names no namespace when there is none (the request namespace applies)', () => {
    expect(
      opaqueSecret('orders-password', undefined, {}, {}).metadata,
    ).toStrictEqual({ name: 'orders-password', labels: {} });
  });
});
