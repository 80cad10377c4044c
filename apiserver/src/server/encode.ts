import type { ObjectMeta } from '@internal/plugin-databases-common';

/** Anything with Kubernetes object metadata. */
export interface KubeObject {
  metadata: ObjectMeta;
}

interface Cached {
  rv: string | undefined;
  bytes: Buffer;
}

const objectBytes = new WeakMap<object, Cached>();

/**
 * UTF-8 bytes in an allocation of their own: `Buffer.from` would slice Node's shared 8 KiB pool,
 * and one long-lived cached slice keeps its whole slab alive (memory grew with every change).
 */
function ownedBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
const metadataBytes = new WeakMap<object, Cached>();

/**
 * `JSON.stringify(obj)` as UTF-8, memoised per object and resourceVersion: the store hands out
 * the same object until it changes, so a list of 10,000 instances is one `Buffer.concat` per
 * request (kept as bytes, not strings: converting a 16 MiB string to UTF-8 on every response
 * cost as much as building it).
 */
export function encodeObjectBytes(obj: KubeObject): Buffer {
  const rv = obj.metadata?.resourceVersion;
  const hit = objectBytes.get(obj);
  if (hit && hit.rv === rv) return hit.bytes;
  const bytes = ownedBytes(JSON.stringify(obj));
  objectBytes.set(obj, { rv, bytes });
  return bytes;
}

/** {@link encodeObjectBytes} as a string (single objects; lists and watches use the bytes). */
export function encodeObject(obj: KubeObject): string {
  return encodeObjectBytes(obj).toString();
}

/** The object as `meta.k8s.io/<version>` PartialObjectMetadata (contract §8.4). */
export function toPartialObjectMetadata(obj: KubeObject, version = 'v1') {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

/** Encoded PartialObjectMetadata, memoised like {@link encodeObjectBytes} (v1 only; v1beta1 is rare). */
export function encodePartialObjectMetadataBytes(obj: KubeObject, version = 'v1'): Buffer {
  if (version !== 'v1') return Buffer.from(JSON.stringify(toPartialObjectMetadata(obj, version)));
  const rv = obj.metadata?.resourceVersion;
  const hit = metadataBytes.get(obj);
  if (hit && hit.rv === rv) return hit.bytes;
  const bytes = ownedBytes(JSON.stringify(toPartialObjectMetadata(obj)));
  metadataBytes.set(obj, { rv, bytes });
  return bytes;
}

/** {@link encodePartialObjectMetadataBytes} as a string. */
export function encodePartialObjectMetadata(obj: KubeObject, version = 'v1'): string {
  return encodePartialObjectMetadataBytes(obj, version).toString();
}

const COMMA = Buffer.from(',');

/**
 * `prefix` + the encoded items joined by commas + `suffix`, as the pieces to write: a body is
 * never copied into one big buffer (a fresh 16 MiB allocation per list made V8 run a full
 * collection every few requests).
 */
export function joinEncoded(prefix: string, items: readonly Buffer[], suffix: string): Buffer[] {
  const pieces: Buffer[] = new Array(items.length * 2 + 1);
  pieces[0] = Buffer.from(prefix);
  let n = 1;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) pieces[n++] = COMMA;
    pieces[n++] = items[i];
  }
  pieces[n++] = Buffer.from(suffix);
  pieces.length = n;
  return pieces;
}


/** A copy of `obj` carrying another resourceVersion (DELETED on selector exit uses the old object). */
export function withResourceVersion<T extends KubeObject>(obj: T, resourceVersion: string): T {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion } };
}
