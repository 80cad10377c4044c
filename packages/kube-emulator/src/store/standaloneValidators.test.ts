import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createKubeAjv } from './kubeAjv';
import { KUBE_AJV_FORMATS } from './kubeFormats';
import { StandaloneValidators } from './standaloneValidators';
import { toAjvSchema } from './structuralSchema';

const dir = mkdtempSync(path.join(tmpdir(), 'kube-emulator-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (id: string) => require(id);

/** Every keyword family a CRD schema uses, the formats kube checks and one it ignores. */
const schema = toAjvSchema({
  type: 'object',
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        port: { 'x-kubernetes-int-or-string': true },
        replicas: { type: 'integer', format: 'int32', minimum: 1 },
        timeout: { type: 'string', format: 'duration' },
        at: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
        note: { type: 'string', nullable: true },
        items: { type: 'array', maxItems: 2, items: { type: 'object', properties: { k: { type: 'string', default: 'x' } } } },
      },
    },
  },
}) as object;

const objects: unknown[] = [
  { spec: { name: 'abc' } },
  { spec: { name: 'abc', mode: 'b', port: 'http', replicas: 2 ** 31, timeout: '1h30m', at: '2026-12-07T05:00:00Z', id: '0b6bd2b4-5b3c-4a58-9c3e-7a1c0f7e4a11', note: null, items: [{}] } },
  { spec: { name: 'ABCDEFG', mode: 'c', port: 1.5, replicas: 0, timeout: 'PT1H', at: 'yesterday', id: 'x', note: 3, items: [{}, {}, {}] } },
  { spec: {} },
  {},
  [],
];

describe('StandaloneValidators', () => {
  it('a validator read back in another process validates, defaults and reports exactly as the one ajv compiled', () => {
    const ajv = createKubeAjv();
    const compiled = ajv.compile(schema);
    new StandaloneValidators(dir, KUBE_AJV_FORMATS, load).put('k1', ajv, compiled);
    expect(readdirSync(dir)).toEqual(['k1.js']);

    // a fresh instance (as in the next process) reads the code; nothing compiles it
    const loaded = new StandaloneValidators(dir, KUBE_AJV_FORMATS, load).get('k1');
    expect(loaded).toBeInstanceOf(Function);
    for (const object of objects) {
      const [a, b] = [structuredClone(object), structuredClone(object)];
      expect(loaded!(b)).toBe(compiled(a));
      expect(b).toEqual(a); // the same defaults applied
      expect(loaded!.errors ?? null).toEqual(compiled.errors ?? null);
    }
    // the invalid object failed on the formats kube checks, not on the int32 it ignores
    const invalid = structuredClone(objects[2]);
    loaded!(invalid);
    expect(loaded!.errors!.filter(e => e.keyword === 'format').map(e => e.params.format).sort()).toEqual(['date-time', 'duration', 'uuid']);
  });

  it('a missing or broken file is no validator (the caller compiles again), and nothing is kept without a folder', () => {
    const cache = new StandaloneValidators(dir, KUBE_AJV_FORMATS, load);
    expect(cache.get('absent')).toBeUndefined();
    writeFileSync(path.join(dir, 'broken.js'), 'module.exports = (');
    expect(cache.get('broken')).toBeUndefined();
    writeFileSync(path.join(dir, 'notafunction.js'), 'module.exports = 42;');
    expect(cache.get('notafunction')).toBeUndefined();

    const ajv = createKubeAjv();
    const none = new StandaloneValidators(undefined, KUBE_AJV_FORMATS, load);
    none.put('k2', ajv, ajv.compile(schema));
    expect(none.get('k2')).toBeUndefined();
  });

  it('a folder it cannot write to is no cache, not an error', () => {
    // root may write anywhere: a file where the folder should be stops everyone
    const blocked = path.join(dir, 'blocked');
    writeFileSync(blocked, '');
    chmodSync(blocked, 0o444);
    const cache = new StandaloneValidators(path.join(blocked, 'validators'), KUBE_AJV_FORMATS, load);
    const ajv = createKubeAjv();
    expect(() => cache.put('k3', ajv, ajv.compile(schema))).not.toThrow();
    expect(cache.get('k3')).toBeUndefined();
  });

  it('the key changes with what built the code', () => {
    expect(StandaloneValidators.buildKey('8.17.1', ['duration'])).not.toBe(StandaloneValidators.buildKey('8.20.0', ['duration']));
    expect(StandaloneValidators.buildKey('8.20.0', ['int32:ignored'])).not.toBe(StandaloneValidators.buildKey('8.20.0', ['int32']));
  });
});
