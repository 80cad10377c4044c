import { describe, expect, it } from '@jest/globals';
import { validateCelRules } from './celRules';
import { celCompileCauses } from './celCompileCauses';

const rule = (r: Record<string, unknown>) => ({
  'x-kubernetes-validations': [r],
});

describe('validateCelRules', () => {
  const spec = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        ...rule({ rule: 'self.replicas % 2 == 1', message: 'odd, please' }),
        properties: {
          replicas: { type: 'integer' },
          name: {
            type: 'string',
            ...rule({ rule: 'self == oldSelf', message: 'name is immutable' }),
          },
          extra: { type: 'string' },
        },
      },
    },
  };

  it('binds self to the value, integers as CEL ints, and words a failure as kube does', () => {
    expect(validateCelRules(spec, { spec: { replicas: 3 } })).toEqual([]);
    expect(validateCelRules(spec, { spec: { replicas: 2 } })).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec',
        message: 'Invalid value: "object": odd, please',
      },
    ]);
  });

  it('gives "failed rule" when the rule has no message', () => {
    const s = {
      type: 'object',
      properties: { a: { type: 'string', ...rule({ rule: "self != 'x'" }) } },
    };
    expect(validateCelRules(s, { a: 'x' })).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'a',
        message: `Invalid value: "string": failed rule: self != 'x'`,
      },
    ]);
  });

  it('runs a transition rule only on an update with an old value', () => {
    expect(
      validateCelRules(spec, { spec: { replicas: 1, name: 'a' } }),
    ).toEqual([]);
    expect(
      validateCelRules(
        spec,
        { spec: { replicas: 1, name: 'b' } },
        { spec: { replicas: 1, name: 'a' } },
      ),
    ).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.name',
        message: 'Invalid value: "string": name is immutable',
      },
    ]);
    // the old object had no name: nothing to correlate with
    expect(
      validateCelRules(
        spec,
        { spec: { replicas: 1, name: 'b' } },
        { spec: { replicas: 1 } },
      ),
    ).toEqual([]);
  });

  it('refuses an object under an optionalOldSelf rule instead of skipping the rule', () => {
    const s = {
      type: 'object',
      properties: {
        a: {
          type: 'string',
          ...rule({
            rule: '!oldSelf.hasValue() || self == oldSelf.value()',
            optionalOldSelf: true,
          }),
        },
      },
    };
    expect(validateCelRules(s, { a: 'x' })).toEqual([
      expect.objectContaining({ field: 'a', reason: 'FieldValueInvalid' }),
    ]);
    const plain = {
      type: 'object',
      properties: {
        a: {
          type: 'string',
          ...rule({ rule: 'self == oldSelf', optionalOldSelf: true }),
        },
      },
    };
    expect(validateCelRules(plain, { a: 'x' })).toEqual([
      expect.objectContaining({
        field: 'a',
        message: expect.stringContaining('optional'),
      }),
    ]);
    expect(celCompileCauses(s, 'x')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'x.properties[a].x-kubernetes-validations[0].optionalOldSelf',
        }),
      ]),
    );
  });

  it('reports a runtime error with cel-go wording, so a missing field refuses the object', () => {
    const s = {
      type: 'object',
      ...rule({ rule: 'self.mode == "on"' }),
      properties: { mode: { type: 'string' } },
    };
    expect(validateCelRules(s, {})).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: '',
        message:
          'Invalid value: "object": no such key: mode evaluating rule: self.mode == "on"',
      },
    ]);
    // null-valued fields are absent
    expect(
      validateCelRules(
        { ...s, ...rule({ rule: '!has(self.mode)' }) },
        { mode: null },
      ),
    ).toEqual([]);
  });

  it('honours reason, fieldPath and messageExpression', () => {
    const s = {
      type: 'object',
      ...rule({
        rule: 'self.a < self.b',
        reason: 'FieldValueForbidden',
        fieldPath: '.a',
        messageExpression: "'a must be below ' + string(self.b)",
      }),
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    };
    expect(validateCelRules(s, { a: 5, b: 2 })).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'a',
        message: 'Forbidden: a must be below 2',
      },
    ]);
  });

  it('correlates the items of a map list by key, and not those of an atomic list', () => {
    const item = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        size: {
          type: 'integer',
          ...rule({ rule: 'self >= oldSelf', message: 'may not shrink' }),
        },
      },
    };
    const mapList = {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: item,
        },
      },
    };
    const atomic = {
      type: 'object',
      properties: { l: { type: 'array', items: item } },
    };
    const old = {
      l: [
        { name: 'a', size: 5 },
        { name: 'b', size: 5 },
      ],
    };
    const next = {
      l: [
        { name: 'b', size: 4 },
        { name: 'a', size: 6 },
      ],
    };
    expect(validateCelRules(mapList, next, old)).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'l[0].size',
        message: 'Invalid value: "integer": may not shrink',
      },
    ]);
    expect(validateCelRules(atomic, next, old)).toEqual([]);
  });

  it('sees only name and generateName of the root metadata', () => {
    const s = {
      type: 'object',
      ...rule({
        rule: "self.metadata.name.startsWith('db-') && !has(self.metadata.labels)",
      }),
    };
    expect(
      validateCelRules(s, { metadata: { name: 'db-1', labels: { a: 'b' } } }),
    ).toEqual([]);
  });
});

describe('celCompileCauses', () => {
  it('refuses a rule that does not parse, or names an unknown variable or function (fail closed)', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: 'self.a +' },
            { rule: 'other.a == 1' },
            { rule: "quantity(self.size).isGreaterThan(quantity('1Gi'))" },
            { rule: 'self.all(x, x > 0)' },
          ],
        },
      },
    };
    const causes = celCompileCauses(
      schema,
      'spec.versions[0].schema.openAPIV3Schema',
    );
    expect(causes.map(c => c.field)).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].rule',
    ]);
    expect(causes[1].message).toContain("undeclared reference to 'other'");
    expect(causes[2].message).toContain("undeclared reference to 'quantity'");
  });
});
