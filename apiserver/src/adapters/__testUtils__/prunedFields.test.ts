import { describe, it, expect } from '@jest/globals';
import { prunedFields } from './prunedFields';

const schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        items: {
          type: 'array',
          items: { type: 'object', properties: { a: { type: 'string' } } },
        },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        map: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
};

describe('prunedFields', () => {
  it('finds fields the schema does not declare, at any depth', () => {
    expect(
      prunedFields(schema, {
        kind: 'X',
        metadata: { name: 'x' },
        spec: {
          size: 1,
          sise: 2,
          items: [{ a: 'x', b: 'y' }],
          free: { any: 1 },
          map: { k: 'v' },
        },
      }),
    ).toEqual(['spec.sise', 'spec.items[0].b']);
  });
});
