import { describe, expect, it } from '@jest/globals';
import { negotiateOutput, type ResponseShape } from './negotiate';
import { StatusError } from './StatusError';

const KUBECTL = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const METADATA_LIST =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

describe('negotiateOutput', () => {
  it.each<[string | undefined, ResponseShape, unknown]>([
    [undefined, 'list', { encoding: 'json' }],
    ['', 'object', { encoding: 'json' }],
    ['*/*', 'object', { encoding: 'json' }],
    ['application/json;stream=watch', 'watch', { encoding: 'json' }],
    [KUBECTL, 'list', { encoding: 'json', transform: { kind: 'Table', version: 'v1' } }],
    [KUBECTL, 'watch', { encoding: 'json', transform: { kind: 'Table', version: 'v1' } }],
    ['application/json;as=Table;g=meta.k8s.io;v=v1beta1', 'object', { encoding: 'json', transform: { kind: 'Table', version: 'v1beta1' } }],
    [METADATA_LIST, 'list', { encoding: 'json', transform: { kind: 'PartialObjectMetadataList', version: 'v1' } }],
    [METADATA, 'object', { encoding: 'json', transform: { kind: 'PartialObjectMetadata', version: 'v1' } }],
    [METADATA, 'watch', { encoding: 'json', transform: { kind: 'PartialObjectMetadata', version: 'v1' } }],
    ['application/vnd.kubernetes.protobuf,application/json', 'object', { encoding: 'json' }],
    ['application/cbor, application/json', 'object', { encoding: 'json' }],
    ['application/json;as=Foo;g=meta.k8s.io;v=v1, application/json', 'object', { encoding: 'json' }],
    ['application/yaml', 'list', { encoding: 'yaml' }],
    ['application/yaml;q=0.5, application/json', 'list', { encoding: 'json' }],
  ])('%j for a %s', (accept, shape, expected) => {
    expect(negotiateOutput(accept, shape)).toEqual(expected);
  });

  it.each<[string, ResponseShape, string]>([
    ['application/vnd.kubernetes.protobuf', 'object', 'only the following media types are accepted: application/json, application/yaml'],
    ['application/json;as=Table;g=meta.k8s.io;v=v2', 'list', 'only the following media types are accepted'],
    ['text/html', 'list', 'only the following media types are accepted'],
    ['application/yaml', 'watch', 'only the following media types are accepted'],
    ['application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', 'list', 'you requested PartialObjectMetadata, but the requested object is a list'],
    ['application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'object', 'you requested PartialObjectMetadataList, but the requested object is not a list'],
  ])('%j for a %s is a 406', (accept, shape, message) => {
    let err: unknown;
    try {
      negotiateOutput(accept, shape);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({ code: 406, reason: 'NotAcceptable' });
    expect((err as StatusError).message).toContain(message);
  });
});
