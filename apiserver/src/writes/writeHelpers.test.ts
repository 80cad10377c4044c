import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { adapters } from '../adapters/registry';
import type { AdapterWriteSide } from '../adapters/types';
import { claimSpec } from './claimSpec';
import { endpointsWithUris } from './connectionEndpoints';
import { applyDefaults, offeredDefaultVersion } from './defaults';
import {
  describeCause,
  forbidden,
  formatFieldValue,
  immutable,
  invalid,
  notSupported,
  required,
  typeInvalid,
} from './FieldCause';
import { isLabelValue, toLabelValue } from './labelValue';
import { toConnection } from './toConnection';
import { validateInstanceName } from './validateName';

describe('FieldCause: apimachinery field.Error words and cause types', () => {
  it('formats values as field.Error prints them', () => {
    expect(formatFieldValue('a')).toBe('"a"');
    expect(formatFieldValue(undefined)).toBe('null');
    expect(formatFieldValue(3)).toBe('3');
    expect(formatFieldValue({ a: 1 })).toBe('{"a":1}');
  });

  it.each([
    [required('spec.x'), 'FieldValueRequired', 'spec.x: Required value'],
    [
      required('spec.x', 'why'),
      'FieldValueRequired',
      'spec.x: Required value: why',
    ],
    [
      invalid('spec.x', 'v', 'bad'),
      'FieldValueInvalid',
      'spec.x: Invalid value: "v": bad',
    ],
    [
      notSupported('spec.x', 'v', ['a', 'b']),
      'FieldValueNotSupported',
      'spec.x: Unsupported value: "v": supported values: "a", "b"',
    ],
    [
      notSupported('spec.x', 'v', []),
      'FieldValueNotSupported',
      'spec.x: Unsupported value: "v"',
    ],
    [forbidden('spec.x', 'no'), 'FieldValueForbidden', 'spec.x: Forbidden: no'],
    [
      immutable('spec.x', 2),
      'FieldValueInvalid',
      'spec.x: Invalid value: 2: field is immutable',
    ],
    [
      typeInvalid('spec.x', '3', 'integer'),
      'FieldValueTypeInvalid',
      'spec.x: Invalid value: "3": must be of type integer',
    ],
  ])('%j', (cause, reason, text) => {
    expect(cause.reason).toBe(reason);
    expect(describeCause(cause)).toBe(text);
  });
});

describe('validateInstanceName', () => {
  it('requires a name and a string', () => {
    for (const missing of [undefined, ''])
      expect(
        validateInstanceName(missing, 40, 'op').map(describeCause),
      ).toEqual([
        'metadata.name: Required value: name or generateName is required',
      ]);
    expect(validateInstanceName(7, 40, 'op').map(describeCause)).toEqual([
      'metadata.name: Invalid value: 7: must be a string',
    ]);
    expect(validateInstanceName('orders', 40, 'op')).toEqual([]);
  });
});

describe('label values', () => {
  it('allows 63 characters, not 64', () => {
    expect(isLabelValue('a'.repeat(63))).toBe(true);
    expect(isLabelValue('a'.repeat(64))).toBe(false);
    expect(isLabelValue('-a')).toBe(false);
    expect(isLabelValue('')).toBe(true);
  });

  it('folds every run of disallowed characters into one _, and trims both ends', () => {
    expect(toLabelValue('user:default/alice')).toBe('user_default_alice');
    expect(toLabelValue('a::b')).toBe('a_b');
    expect(toLabelValue('alice@example.com!!')).toBe('alice_example.com');
    expect(toLabelValue('--x--')).toBe('x');
  });
});

describe('claimSpec', () => {
  it('one writer node, the size, and the class only when named', () => {
    expect(claimSpec({ size: '1Gi' })).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
    });
    expect(claimSpec({ size: '1Gi', storageClassName: 'fast' })).toMatchObject({
      storageClassName: 'fast',
    });
    expect(claimSpec(undefined)).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: undefined } },
    });
  });
});

describe('defaults', () => {
  const mariadb = adapters.find(a => a.engine === 'mariadb')!
    .write as AdapterWriteSide;

  it('the engine default while it is offered, else the first offered', () => {
    expect(offeredDefaultVersion('11.4', undefined)).toBe('11.4');
    expect(offeredDefaultVersion('11.4', [])).toBe('11.4');
    expect(offeredDefaultVersion('11.4', ['11.8', '11.4'])).toBe('11.4');
    expect(offeredDefaultVersion('11.4', ['11.8', '10.11'])).toBe('11.8');
  });

  it('a topology the engine lacks gets no replicas default; a storage of the wrong type is left for validation', () => {
    const unknown = applyDefaults(
      { engine: 'mariadb', topology: 'cluster' },
      mariadb,
    );
    expect(unknown.replicas).toBeUndefined();
    expect(unknown.storage?.size).toBe(
      mariadb.defaults(mariadb.defaultTopology).storage.size,
    );
    for (const storage of ['10Gi', null, ['10Gi']] as unknown[])
      expect(
        applyDefaults({ engine: 'mariadb', storage } as never, mariadb).storage,
      ).toBe(storage);
    expect(
      applyDefaults(
        { engine: 'mariadb', storage: { storageClassName: 'fast' } },
        mariadb,
      ).storage,
    ).toEqual({
      storageClassName: 'fast',
      size: mariadb.defaults('standalone').storage.size,
    });
  });
});

describe('toConnection', () => {
  const instance = (
    metadata: DatabaseInstance['metadata'],
  ): DatabaseInstance => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata,
    spec: { engine: 'redis' },
  });
  const details = { host: 'h', port: 1, uri: 'redis://h:1', endpoints: [] };

  it('carries uid and resourceVersion when known, and only the credentials there are', () => {
    expect(
      toConnection(
        instance({ name: 'a', namespace: 'n', uid: 'u', resourceVersion: '7' }),
        {
          ...details,
          username: 'x',
          password: 'y',
          database: 'd',
          secretRef: { name: 's' },
        },
      ),
    ).toEqual({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstanceConnection',
      metadata: { name: 'a', namespace: 'n', uid: 'u', resourceVersion: '7' },
      engine: 'redis',
      host: 'h',
      port: 1,
      username: 'x',
      password: 'y',
      database: 'd',
      uri: 'redis://h:1',
      endpoints: [],
      secretRef: { name: 's' },
    });
    const bare = toConnection(instance({}), details);
    expect(bare.metadata).toEqual({ name: '', namespace: 'default' });
    for (const key of ['username', 'password', 'database', 'secretRef'])
      expect(bare).not.toHaveProperty(key);
    // an empty password is still a password
    expect(
      toConnection(instance({ name: 'a' }), { ...details, password: '' })
        .password,
    ).toBe('');
  });
});

describe('endpointsWithUris', () => {
  const inst = (
    endpoints: Array<{ name: string; host: string; port: number }>,
  ): DatabaseInstance => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name: 'a', namespace: 'n' },
    spec: { engine: 'redis' },
    status: {
      phase: 'Ready',
      endpoints,
      source: {
        apiVersion: 'redis.redis.opstreelabs.in/v1beta2',
        kind: 'Redis',
        name: 'a',
        operator: 'redis-operator',
      },
    },
  });

  it('the primary is the named endpoint with a URI; without endpoints, the fallback', () => {
    const fallback = { name: 'primary', host: 'f.n.svc', port: 6379 };
    const { primary, endpoints } = endpointsWithUris(
      inst([
        { name: 'readonly', host: 'r.n.svc', port: 6379 },
        { name: 'primary', host: 'p.n.svc', port: 6379 },
      ]),
      fallback,
      () => ({ scheme: 'redis' }),
    );
    expect(primary).toMatchObject({
      name: 'primary',
      host: 'p.n.svc',
      uri: 'redis://p.n.svc:6379',
    });
    expect(endpoints.map(e => e.uri)).toEqual([
      'redis://r.n.svc:6379',
      'redis://p.n.svc:6379',
    ]);
    const none = endpointsWithUris(inst([]), fallback, () => ({
      scheme: 'redis',
    }));
    expect(none.primary).toMatchObject({
      host: 'f.n.svc',
      uri: 'redis://f.n.svc:6379',
    });
  });

  it('an endpoint without a URI keeps its address; the primary is then the first with one, or tcp:// to the fallback', () => {
    const fallback = { name: 'primary', host: 'f.n.svc', port: 1 };
    const mixed = endpointsWithUris(
      inst([
        { name: 'primary', host: 'p.n.svc', port: 1 },
        { name: 'management', host: 'm.n.svc', port: 2 },
      ]),
      fallback,
      e => (e.name === 'management' ? { scheme: 'http' } : undefined),
    );
    expect(mixed.endpoints).toEqual([
      { name: 'primary', host: 'p.n.svc', port: 1 },
      { name: 'management', host: 'm.n.svc', port: 2, uri: 'http://m.n.svc:2' },
    ]);
    expect(mixed.primary.name).toBe('management');
    const noUri = endpointsWithUris(
      inst([{ name: 'x', host: 'x.n.svc', port: 3 }]),
      fallback,
      () => undefined,
    );
    expect(noUri.primary).toEqual({
      name: 'primary',
      host: 'f.n.svc',
      port: 1,
      uri: 'tcp://f.n.svc:1',
    });
  });
});
