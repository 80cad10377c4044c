import { describe, expect, it } from '@jest/globals';
import { StoreError } from '../store/types';
import { negotiateOutput } from './negotiate';

describe('negotiateOutput', () => {
  it.each([
    [undefined, 'json'],
    ['*/*', 'json'],
    ['application/json, */*', 'json'],
    [
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      'Table',
    ],
    [
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      'PartialObjectMetadataList',
    ],
    ['application/json;as=Foo;g=meta.k8s.io;v=v1,application/json', 'json'],
    ['application/json;stream=watch', 'json'],
    [
      'application/json;q=0.5,application/json;as=Table;g=meta.k8s.io;v=v1',
      'Table',
    ],
  ])('%s → %s', (accept, expected) =>
    expect(negotiateOutput(accept)).toBe(expected),
  );

  it.each([
    'application/vnd.kubernetes.protobuf',
    'text/html',
    'application/json;as=Table;g=other;v=v1',
  ])('%s → 406', accept => {
    let err: unknown;
    try {
      negotiateOutput(accept);
    } catch (e) {
      err = e;
    }
    expect((err as StoreError).code).toBe(406);
  });
});
