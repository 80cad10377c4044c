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
