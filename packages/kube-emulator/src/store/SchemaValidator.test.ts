import { describe, expect, it } from '@jest/globals';
import { SchemaValidator } from './SchemaValidator';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        port: { 'x-kubernetes-int-or-string': true },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        note: { type: 'string', nullable: true },
        config: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'integer' } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: {
            spec: { type: 'object', properties: { x: { type: 'string' } } },
          },
        },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string', maxLength: 3 } },
            required: ['name'],
          },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        when: { type: 'string', format: 'date-time' },
        size: { type: 'string', format: 'quantity-like-unknown-format' },
      },
    },
  },
};

const validate = (spec: Record<string, unknown>) => {
  const obj: Record<string, any> = {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'n', anything: 1 },
    spec,
  };
  return { obj, ...new SchemaValidator().validate(schema, obj) };
};

describe('SchemaValidator', () => {
  it('prunes unknown fields but keeps preserved, embedded and root metadata fields', () => {
    const { obj, causes, pruned } = validate({
      extra: 1,
      config: { known: 1, free: { deep: true } },
      template: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { x: 'y', z: 1 },
      },
      labels: { a: 'b' },
    });
    expect(causes).toEqual([]);
    expect(pruned.sort()).toEqual(['spec.extra', 'spec.template.spec.z']);
    expect(obj.metadata).toEqual({ name: 'n', anything: 1 });
    expect(obj.spec.config).toEqual({ known: 1, free: { deep: true } });
    expect(obj.spec.template).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { x: 'y' },
    });
  });

  it('applies schema defaults', () => {
    expect(validate({}).obj.spec.mode).toBe('a');
  });

  it.each([
    [{ port: 80 }, []],
    [{ port: 'http' }, []],
    [{ note: null }, []],
    [{ size: 'anything' }, []],
    [{ when: '2025-05-01T10:00:00Z' }, []],
    [
      { port: true },
      [
        [
          'spec.port',
          'FieldValueTypeInvalid',
          'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
        ],
      ],
    ],
    [
      { mode: 'c' },
      [
        [
          'spec.mode',
          'FieldValueNotSupported',
          'Unsupported value: "c": supported values: "a", "b"',
        ],
      ],
    ],
    [
      { items: [{ name: 'long' }, {}] },
      [
        [
          'spec.items[0].name',
          'FieldValueTooLong',
          'Too long: may not be more than 3 bytes',
        ],
        ['spec.items[1].name', 'FieldValueRequired', 'Required value'],
      ],
    ],
    [
      { labels: { a: 1 } },
      [
        [
          'spec.labels.a',
          'FieldValueTypeInvalid',
          'Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
        ],
      ],
    ],
    [
      { when: 'yesterday' },
      [
        [
          'spec.when',
          'FieldValueInvalid',
          'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
        ],
      ],
    ],
  ] as const)('validates %j', (spec, expected) => {
    const { causes } = validate(spec as Record<string, unknown>);
    expect(causes.map(c => [c.field, c.reason, c.message])).toEqual(expected);
  });
});

describe('SchemaValidator beyond OpenAPI keywords', () => {
  const v = new SchemaValidator();
  const lists = {
    type: 'object',
    properties: {
      tags: {
        type: 'array',
        'x-kubernetes-list-type': 'set',
        items: { type: 'string' },
      },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'protocol'],
        items: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string' },
            protocol: { type: 'string', default: 'TCP' },
            port: { type: 'integer', format: 'int32' },
          },
        },
      },
      timeout: { type: 'string', format: 'duration' },
    },
  };
  const check = (obj: Record<string, unknown>) =>
    v
      .validate(lists, structuredClone(obj))
      .causes.map(c => [c.field, c.reason, c.message]);

  it('refuses duplicates in a set list and in a map list (keys defaulted first)', () => {
    expect(check({ tags: ['a', 'b', 'a'] })).toEqual([
      ['tags[2]', 'FieldValueDuplicate', 'Duplicate value: "a"'],
    ]);
    expect(
      check({
        ports: [
          { name: 'db' },
          { name: 'db', protocol: 'UDP' },
          { name: 'db', protocol: 'TCP' },
        ],
      }),
    ).toEqual([
      [
        'ports[2]',
        'FieldValueDuplicate',
        'Duplicate value: map[string]interface {}{"name":"db", "protocol":"TCP"}',
      ],
    ]);
  });

  it('does not check int32 ranges (kube ignores the format of numbers) and reads duration as Go does', () => {
    expect(check({ ports: [{ name: 'a', port: 2 ** 31 }] })).toEqual([]);
    expect(check({ timeout: '1h30m' })).toEqual([]);
    expect(check({ timeout: 'PT1H' })).toEqual([
      [
        'timeout',
        'FieldValueInvalid',
        'Invalid value: "PT1H": timeout in body must be of type duration: "PT1H"',
      ],
    ]);
  });

  it('does not run CEL rules on an object with type errors, and says so', () => {
    const withRule = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.n > 0' }],
      properties: { n: { type: 'integer' } },
    };
    expect(v.validate(withRule, { n: 'x' }).causes.map(c => c.message)).toEqual(
      [
        'Invalid value: "string": n in body must be of type integer: "string"',
        'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ],
    );
    expect(v.validate(withRule, { n: 0 }).causes.map(c => c.message)).toEqual([
      'Invalid value: "object": failed rule: self.n > 0',
    ]);
  });
});

describe('nulls', () => {
  it('become the default of a non-nullable field, or go when it has none; a nullable field keeps null', () => {
    const v = new SchemaValidator();
    const s = {
      type: 'object',
      properties: {
        a: { type: 'integer', default: 1 },
        b: { type: 'string' },
        c: { type: 'string', nullable: true },
        d: {
          type: 'object',
          properties: { x: { type: 'string', default: 'y' } },
        },
      },
    };
    const obj: Record<string, unknown> = { a: null, b: null, c: null, d: null };
    expect(v.validate(s, obj).causes).toEqual([]);
    expect(obj).toEqual({ a: 1, c: null });
  });
});
