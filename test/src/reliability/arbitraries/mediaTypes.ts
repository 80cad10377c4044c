import fc from 'fast-check';
import { hostileString } from './hostileStrings';

const KNOWN_ACCEPTS = [
  'application/json',
  'application/yaml',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
  'application/json;as=Table;v=v2;g=meta.k8s.io',
  'application/json;as=Table;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io',
  'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io',
  'application/json;as=APIGroupDiscoveryList;v=v2beta1;g=apidiscovery.k8s.io',
  'application/json;as=Nope;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/cbor',
  'application/json;stream=watch',
  'application/*',
  '*/*',
  '*/json',
  'text/html',
  'text/plain',
  'application/json;q=0',
  'application/json;q=abc',
  'application/json;q=-1',
  'application/json;q=1e400',
  'application/yaml;q=0.5, application/json;q=0.9',
  ';;;',
  ',',
  '/',
  'application/',
  '/json',
  'application/json;=',
  'application/json;as',
  'application/json;as="Table";v="v1";g="meta.k8s.io"',
];

/** An Accept header: the ones kube clients send, transforms the server does not know, and noise. */
export function acceptHeader(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...KNOWN_ACCEPTS) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...KNOWN_ACCEPTS), { minLength: 2, maxLength: 4 }).map(a => a.join(', ')) },
    { weight: 1, arbitrary: hostileString(60) },
  );
}

const KNOWN_CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/yaml',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/apply-patch+cbor',
  'application/vnd.kubernetes.protobuf',
  'application/cbor',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/yaml',
  'application/xml',
  '',
  ';',
  'application/json;;',
];

/** A Content-Type header: every type the API serves, the patch types it does not, and noise. */
export function contentType(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...KNOWN_CONTENT_TYPES) },
    { weight: 1, arbitrary: hostileString(40) },
  );
}
