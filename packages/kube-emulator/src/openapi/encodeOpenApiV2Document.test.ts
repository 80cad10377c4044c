import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Msg } from './__testUtils__/decodeProto';
import { anyToJson, schemaToJson } from './__testUtils__/schemaToJson';
import { encodeOpenApiV2Document } from './encodeOpenApiV2Document';

// src/openapi → ../shared/operators beside the repository root
const OPERATORS = path.resolve(__dirname, '../../../../../shared/operators');

const GVK = [{ group: 'example.dev', version: 'v1', kind: 'Widget' }];

/** Encodes a document holding one definition and returns that definition's Schema message. */
function encodeDefinition(schema: unknown): Msg {
  const doc = new Msg(encodeOpenApiV2Document({ swagger: '2.0', definitions: { X: schema } }));
  return doc.msg(9)!.named(1).get('X')!;
}

describe('encodeOpenApiV2Document: Schema', () => {
  // field numbers from gnostic-models openapiv2/OpenAPIv2.proto, message Schema
  it.each([
    ['$ref', '#/definitions/Y', 1],
    ['format', 'int32', 2],
    ['title', 'T', 3],
    ['description', 'Size of the widget.', 4],
    ['pattern', '^[a-z]+$', 13],
    ['discriminator', 'kind', 26],
  ])('string %s is field %d', (key, value, field) => {
    expect(encodeDefinition({ [key]: value }).str(field as number)).toBe(value);
  });

  it.each([
    ['maxLength', 63, 11],
    ['minLength', 1, 12],
    ['maxItems', 3, 14],
    ['minItems', 1, 15],
    ['maxProperties', 9, 17],
    ['minProperties', 2, 18],
  ])('int64 %s is varint field %d', (key, value, field) => {
    expect(encodeDefinition({ [key]: value }).varint(field)).toBe(BigInt(value));
  });

  it.each([
    ['multipleOf', 0.5, 6],
    ['maximum', 65535, 7],
    ['minimum', -1.25, 9],
  ])('double %s is fixed64 field %d', (key, value, field) => {
    const m = encodeDefinition({ [key]: value });
    expect(m.all(field)[0].wireType).toBe(1);
    expect(m.double(field)).toBe(value);
  });

  it.each([
    ['exclusiveMaximum', 8],
    ['exclusiveMinimum', 10],
    ['uniqueItems', 16],
    ['readOnly', 27],
  ])('bool %s is field %d', (key, field) => {
    expect(encodeDefinition({ [key]: true }).varint(field)).toBe(1n);
    expect(encodeDefinition({ [key]: false }).has(field)).toBe(false);
  });

  it('type is a TypeItem (22) from a string or a list', () => {
    expect(encodeDefinition({ type: 'object' }).msg(22)!.strs(1)).toEqual(['object']);
    expect(encodeDefinition({ type: ['string', 'null'] }).msg(22)!.strs(1)).toEqual(['string', 'null']);
  });

  it('items is an ItemsItem (23) with one schema, or one per tuple member', () => {
    const one = encodeDefinition({ type: 'array', items: { type: 'string' } }).msg(23)!;
    expect(one.msgs(1).map(s => s.msg(22)!.strs(1))).toEqual([['string']]);
    const tuple = encodeDefinition({ items: [{ type: 'string' }, { type: 'integer' }] }).msg(23)!;
    expect(tuple.msgs(1).map(s => s.msg(22)!.strs(1))).toEqual([['string'], ['integer']]);
  });

  it.each([
    [true, 'boolean true'],
    [false, 'boolean false (written: oneof presence)'],
  ])('additionalProperties %p is AdditionalPropertiesItem.boolean (%s)', value => {
    const ap = encodeDefinition({ type: 'object', additionalProperties: value }).msg(21)!;
    expect(ap.has(1)).toBe(false);
    expect(ap.varint(2)).toBe(value ? 1n : 0n);
  });

  it('additionalProperties schema is AdditionalPropertiesItem.schema', () => {
    const ap = encodeDefinition({ type: 'object', additionalProperties: { type: 'string' } }).msg(21)!;
    expect(ap.msg(1)!.msg(22)!.strs(1)).toEqual(['string']);
  });

  it('properties (25) keep their order, and an empty properties object is still present', () => {
    const m = encodeDefinition({ properties: { b: { type: 'string' }, a: { type: 'integer' } } });
    expect([...m.msg(25)!.named(1).keys()]).toEqual(['b', 'a']);
    const empty = encodeDefinition({ type: 'object', properties: {} });
    expect(empty.has(25)).toBe(true);
    expect(empty.msg(25)!.fields).toEqual([]);
  });

  it('required (19) is a repeated string, allOf (24) a repeated Schema', () => {
    const m = encodeDefinition({ required: ['a', 'b'], allOf: [{ $ref: '#/definitions/A' }, { $ref: '#/definitions/B' }] });
    expect(m.strs(19)).toEqual(['a', 'b']);
    expect(m.msgs(24).map(s => s.str(1))).toEqual(['#/definitions/A', '#/definitions/B']);
  });

  it('default (5), example (30) and enum (20) are Any messages whose YAML (YAML 1.1) parses back', () => {
    const values = ['yes', 'on', '0123', '1.0', '', 'null', 7, 1.5, true, null, { a: ['x', 1] }];
    const m = encodeDefinition({ default: { replicas: 1, mode: 'off' }, example: 'no', enum: values });
    expect(anyToJson(m.msg(5)!)).toEqual({ replicas: 1, mode: 'off' });
    expect(anyToJson(m.msg(30)!)).toBe('no');
    expect(m.msgs(20).map(anyToJson)).toEqual(values);
  });

  it('x-kubernetes-group-version-kind is a vendor extension (31) kubectl can read', () => {
    const m = encodeDefinition({ type: 'object', 'x-kubernetes-group-version-kind': GVK, 'x-kubernetes-preserve-unknown-fields': true });
    const ext = m.named(31);
    expect([...ext.keys()]).toEqual(['x-kubernetes-group-version-kind', 'x-kubernetes-preserve-unknown-fields']);
    expect(anyToJson(ext.get('x-kubernetes-group-version-kind')!)).toEqual(GVK);
    expect(anyToJson(ext.get('x-kubernetes-preserve-unknown-fields')!)).toBe(true);
  });

  it('drops keys swagger 2.0 does not define and malformed values instead of throwing', () => {
    const m = encodeDefinition({
      nullable: true,
      anyOf: [{ type: 'string' }],
      description: 5,
      type: 7,
      maxLength: 1.5,
      properties: 'nope',
      items: 'nope',
      required: 'a',
    });
    expect(m.fields).toEqual([]);
  });
});

describe('encodeOpenApiV2Document: Document, paths and operations', () => {
  const doc = {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.33.0', description: 'merged' },
    paths: {
      '/apis/example.dev/v1/namespaces/{namespace}/widgets/{name}': {
        parameters: [
          { name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true },
          { $ref: '#/parameters/namespace-vgWSWtn3' },
        ],
        get: {
          tags: ['exampleDev_v1'],
          description: 'read the specified Widget',
          operationId: 'readWidget',
          consumes: ['*/*'],
          produces: ['application/json', 'application/yaml'],
          schemes: ['https'],
          parameters: [{ name: 'pretty', in: 'query', type: 'string', uniqueItems: true }],
          responses: {
            '200': { description: 'OK', schema: { $ref: '#/definitions/dev.example.v1.Widget' } },
            '401': { description: 'Unauthorized' },
          },
          'x-kubernetes-action': 'get',
          'x-kubernetes-group-version-kind': GVK[0],
        },
        put: {
          operationId: 'replaceWidget',
          parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/dev.example.v1.Widget' } }],
          responses: { '200': { description: 'OK' } },
        },
        delete: { operationId: 'deleteWidget', deprecated: true },
        patch: { operationId: 'patchWidget' },
        post: { operationId: 'never' },
      },
    },
    definitions: {
      'dev.example.v1.Widget': {
        description: 'A widget.',
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer', description: 'Size of the widget.' } } } },
        'x-kubernetes-group-version-kind': GVK,
      },
    },
    parameters: { 'namespace-vgWSWtn3': { name: 'namespace', in: 'path', required: true, type: 'string', uniqueItems: true } },
    securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } },
    security: [{ BearerToken: [] }],
  };
  const m = new Msg(encodeOpenApiV2Document(doc));

  it('writes swagger (1) and Info (2: title 1, version 2, description 3)', () => {
    expect(m.str(1)).toBe('2.0');
    const info = m.msg(2)!;
    expect([info.str(1), info.str(2), info.str(3)]).toEqual(['Kubernetes', 'v1.33.0', 'merged']);
  });

  it('writes Paths (8) as NamedPathItem (2) with operations at get 2, put 3, post 4, delete 5, patch 8', () => {
    const paths = m.msg(8)!.named(2);
    const item = paths.get('/apis/example.dev/v1/namespaces/{namespace}/widgets/{name}')!;
    expect(
      [2, 3, 4, 5, 8].map(f => item.msg(f)!.str(5)),
    ).toEqual(['readWidget', 'replaceWidget', 'never', 'deleteWidget', 'patchWidget']);
    expect(item.has(6) || item.has(7)).toBe(false);
    expect(item.msg(5)!.varint(11)).toBe(1n);
  });

  it('writes an Operation: tags 1, description 3, produces 6, consumes 7, schemes 10, vendor extensions 13', () => {
    const get = m.msg(8)!.named(2).get('/apis/example.dev/v1/namespaces/{namespace}/widgets/{name}')!.msg(2)!;
    expect(get.strs(1)).toEqual(['exampleDev_v1']);
    expect(get.str(3)).toBe('read the specified Widget');
    expect(get.strs(6)).toEqual(['application/json', 'application/yaml']);
    expect(get.strs(7)).toEqual(['*/*']);
    expect(get.strs(10)).toEqual(['https']);
    const ext = get.named(13);
    expect(anyToJson(ext.get('x-kubernetes-action')!)).toBe('get');
    expect(anyToJson(ext.get('x-kubernetes-group-version-kind')!)).toEqual(GVK[0]);
  });

  it('writes parameters as ParametersItem: inline query/path (NonBodyParameter) or JsonReference', () => {
    const item = m.msg(8)!.named(2).get('/apis/example.dev/v1/namespaces/{namespace}/widgets/{name}')!;
    const [pathParam, ref] = item.msgs(9);
    // ParametersItem.parameter(1) → Parameter.non_body_parameter(2) → path_parameter_sub_schema(4)
    const sub = pathParam.msg(1)!.msg(2)!.msg(4)!;
    expect([sub.varint(1), sub.str(2), sub.str(4), sub.str(5), sub.varint(19)]).toEqual([1n, 'path', 'name', 'string', 1n]);
    expect(ref.msg(2)!.str(1)).toBe('#/parameters/namespace-vgWSWtn3');
    const query = item.msg(2)!.msgs(8)[0].msg(1)!.msg(2)!.msg(3)!;
    // query_parameter_sub_schema: in 2, name 4, type 6 (after allow_empty_value 5), unique_items 20
    expect([query.str(2), query.str(4), query.str(6), query.varint(20)]).toEqual(['query', 'pretty', 'string', 1n]);
  });

  it('writes a body parameter as Parameter.body_parameter (1) with its schema (5)', () => {
    const put = m.msg(8)!.named(2).get('/apis/example.dev/v1/namespaces/{namespace}/widgets/{name}')!.msg(3)!;
    const body = put.msgs(8)[0].msg(1)!.msg(1)!;
    expect([body.str(2), body.str(3), body.varint(4)]).toEqual(['body', 'body', 1n]);
    expect(body.msg(5)!.str(1)).toBe('#/definitions/dev.example.v1.Widget');
  });

  it('writes Responses (9) as NamedResponseValue with Response (description 1, SchemaItem.schema 2→1)', () => {
    const get = m.msg(8)!.named(2).get('/apis/example.dev/v1/namespaces/{namespace}/widgets/{name}')!.msg(2)!;
    const codes = get.msg(9)!.named(1);
    expect([...codes.keys()]).toEqual(['200', '401']);
    const ok = codes.get('200')!.msg(1)!;
    expect(ok.str(1)).toBe('OK');
    expect(ok.msg(2)!.msg(1)!.str(1)).toBe('#/definitions/dev.example.v1.Widget');
    expect(codes.get('401')!.msg(1)!.has(2)).toBe(false);
  });

  it('writes definitions (9), parameters (10), security (12) and securityDefinitions (13)', () => {
    const widget = m.msg(9)!.named(1).get('dev.example.v1.Widget')!;
    expect(schemaToJson(widget)).toEqual(doc.definitions['dev.example.v1.Widget']);
    const ns = m.msg(10)!.named(1).get('namespace-vgWSWtn3')!;
    expect(ns.msg(2)!.msg(4)!.str(4)).toBe('namespace');
    const sec = m.msg(12)!.named(1).get('BearerToken')!;
    expect(sec.strs(1)).toEqual([]);
    const apiKey = m.msg(13)!.named(1).get('BearerToken')!.msg(2)!;
    expect([apiKey.str(1), apiKey.str(2), apiKey.str(3), apiKey.str(4)]).toEqual([
      'apiKey',
      'authorization',
      'header',
      'Bearer Token authentication',
    ]);
  });

  it('fields appear in field-number order, as Go proto.Marshal writes them', () => {
    const order = m.fields.map(f => f.field);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('survives a malformed document (wrong types everywhere) without throwing', () => {
    const bad = encodeOpenApiV2Document({ swagger: 2, info: 'x', paths: { '/a': 5, '/b': { get: 'x', parameters: 'y' } }, definitions: [1], security: 'x' });
    const decoded = new Msg(bad);
    expect(decoded.has(1)).toBe(false);
    const paths = decoded.msg(8)!.named(2);
    expect([...paths.keys()]).toEqual(['/b']);
    expect(paths.get('/b')!.fields).toEqual([]);
    expect(decoded.has(9)).toBe(false);
  });
});

/** Keeps only what swagger 2.0 Schema defines (what the encoder carries), recursively. */
function swaggerSubset(schema: any): any {
  const keep = [
    'description', 'format', 'title', 'pattern', 'multipleOf', 'maximum', 'minimum', 'exclusiveMaximum',
    'exclusiveMinimum', 'maxLength', 'minLength', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties',
    'minProperties', 'required', 'enum', 'type', 'default', 'example', 'readOnly', '$ref',
  ];
  const out: any = {};
  for (const [k, v] of Object.entries(schema)) {
    // proto3 scalars cannot carry their zero value (`minimum: 0`, `description: ""`): Go's
    // proto.Marshal drops them too, so kube-apiserver's protobuf document loses them as well
    const isAny = k === 'default' || k === 'example' || k.startsWith('x-');
    if (!isAny && (v === 0 || v === '' || v === false)) continue;
    if (keep.includes(k) || k.startsWith('x-')) out[k] = v;
  }
  if (schema.items) out.items = swaggerSubset(schema.items);
  if (schema.allOf) out.allOf = schema.allOf.map(swaggerSubset);
  if (typeof schema.additionalProperties === 'boolean') out.additionalProperties = schema.additionalProperties;
  else if (schema.additionalProperties) out.additionalProperties = swaggerSubset(schema.additionalProperties);
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, swaggerSubset(v)]));
  }
  return out;
}

describe('encodeOpenApiV2Document on the operators’ real CRD schemas', () => {
  const operators = readdirSync(OPERATORS).filter(op => existsSync(path.join(OPERATORS, op, 'crds')));
  const crds = operators.flatMap(op => {
    const dir = path.join(OPERATORS, op, 'crds');
    return readdirSync(dir)
      .filter(f => f.endsWith('.yaml'))
      .flatMap(f => parseAllDocuments(readFileSync(path.join(dir, f), 'utf8')).map(d => d.toJSON()))
      .filter(crd => crd?.kind === 'CustomResourceDefinition')
      .map(crd => [`${op}/${crd.spec.names.kind}`, crd] as const);
  });

  it('finds the CRDs', () => {
    expect(crds.length).toBeGreaterThanOrEqual(10);
  });

  it.each(crds)('%s: every version’s schema decodes back to its swagger 2.0 subset', (_name, crd) => {
    const definitions: Record<string, unknown> = {};
    for (const v of crd.spec.versions) {
      definitions[`${crd.spec.group}.${v.name}.${crd.spec.names.kind}`] = {
        ...v.schema.openAPIV3Schema,
        'x-kubernetes-group-version-kind': [{ group: crd.spec.group, version: v.name, kind: crd.spec.names.kind }],
      };
    }
    const decoded = new Msg(encodeOpenApiV2Document({ swagger: '2.0', definitions })).msg(9)!.named(1);
    expect([...decoded.keys()]).toEqual(Object.keys(definitions));
    for (const [name, schema] of Object.entries(definitions)) {
      expect(schemaToJson(decoded.get(name)!)).toEqual(swaggerSubset(schema));
    }
  });
});
