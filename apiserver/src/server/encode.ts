import type { ObjectMeta } from '@internal/plugin-databases-common';

/** Anything with Kubernetes object metadata. */
export interface KubeObject {
  metadata: ObjectMeta;
}

interface Cached {
  rv: string | undefined;
  json: string;
}

const objectJson = new WeakMap<object, Cached>();
const metadataJson = new WeakMap<object, Cached>();

/**
 * `JSON.stringify(obj)`, memoised per object and resourceVersion: the store hands out the same
 * object until it changes, so a list of 10,000 instances costs one string join per request.
 */
export function encodeObject(obj: KubeObject): string {
  const rv = obj.metadata?.resourceVersion;
  const hit = objectJson.get(obj);
  if (hit && hit.rv === rv) return hit.json;
  const json = JSON.stringify(obj);
  objectJson.set(obj, { rv, json });
  return json;
}

/** The object as `meta.k8s.io/<version>` PartialObjectMetadata (contract §8.4). */
export function toPartialObjectMetadata(obj: KubeObject, version = 'v1') {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

/** Encoded PartialObjectMetadata, memoised like {@link encodeObject} (v1 only; v1beta1 is rare). */
export function encodePartialObjectMetadata(obj: KubeObject, version = 'v1'): string {
  if (version !== 'v1') return JSON.stringify(toPartialObjectMetadata(obj, version));
  const rv = obj.metadata?.resourceVersion;
  const hit = metadataJson.get(obj);
  if (hit && hit.rv === rv) return hit.json;
  const json = JSON.stringify(toPartialObjectMetadata(obj));
  metadataJson.set(obj, { rv, json });
  return json;
}

/** A copy of `obj` carrying another resourceVersion (DELETED on selector exit uses the old object). */
export function withResourceVersion<T extends KubeObject>(obj: T, resourceVersion: string): T {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion } };
}
