import { describe, expect, it } from '@jest/globals';
import { negotiateOpenApiV2 } from './negotiateOpenApiV2';

describe('negotiateOpenApiV2', () => {
  it.each([
    // what kubectl ≤ 1.27 (client-go discovery OpenAPISchema) sends
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
    // what newer clients send
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    ['APPLICATION/COM.GITHUB.PROTO-OPENAPI.SPEC.V2.V1.0+PROTOBUF', 'protobuf'],
    ['application/json', 'json'],
    ['application/json, */*', 'json'],
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['*', 'json'],
    ['application/*', 'json'],
    // preference order: q first, then concrete types before wildcards
    ['application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0.9, application/json', 'json'],
    ['*/*, application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0, application/json', 'json'],
    ['application/yaml, application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
    ['application/yaml', undefined],
    ['text/html, application/vnd.kubernetes.protobuf', undefined],
    ['application/json;q=0', undefined],
    ['garbage', undefined],
  ])('Accept %p → %p', (accept, expected) => {
    expect(negotiateOpenApiV2(accept)).toBe(expected);
  });
});
