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

interface CachedPieces {
  rv: string | undefined;
  pieces: readonly Buffer[];
}
const metadataPieces = new WeakMap<object, CachedPieces>();
const PARTIAL_V1_PREFIX = Buffer.from('{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":');
const CLOSE_OBJECT = Buffer.from('}');
const METADATA_KEY = Buffer.from('"metadata":');

/**
 * Encoded PartialObjectMetadata as pieces: its metadata is a view into the object's own
 * encoded bytes ({@link encodeObjectBytes}), not a second copy, so every instance keeps its
 * metadata once however many formats are served (v1 only; v1beta1 is rare).
 */
export function encodePartialObjectMetadataPieces(obj: KubeObject, version = 'v1'): readonly Buffer[] {
  if (version !== 'v1') return [Buffer.from(JSON.stringify(toPartialObjectMetadata(obj, version)))];
  const rv = obj.metadata?.resourceVersion;
  const hit = metadataPieces.get(obj);
  if (hit && hit.rv === rv) return hit.pieces;
  const bytes = encodeObjectBytes(obj);
  const metadata = Buffer.from(JSON.stringify(obj.metadata));
  const at = bytes.indexOf(METADATA_KEY) + METADATA_KEY.length;
  const view = bytes.subarray(at, at + metadata.length);
  // the object's first "metadata" key is its own (nothing before it holds an object); checked
  const pieces = at >= METADATA_KEY.length && view.equals(metadata)
    ? [PARTIAL_V1_PREFIX, view, CLOSE_OBJECT]
    : [ownedBytes(JSON.stringify(toPartialObjectMetadata(obj)))];
  metadataPieces.set(obj, { rv, pieces });
  return pieces;
}

/** {@link encodePartialObjectMetadataPieces} in one buffer (a watch event, a single object). */
export function encodePartialObjectMetadataBytes(obj: KubeObject, version = 'v1'): Buffer {
  const pieces = encodePartialObjectMetadataPieces(obj, version);
  return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
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
export function joinEncoded(prefix: string, items: ReadonlyArray<Buffer | readonly Buffer[]>, suffix: string): Buffer[] {
  const pieces: Buffer[] = [Buffer.from(prefix)];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) pieces.push(COMMA);
    const item = items[i];
    if (Buffer.isBuffer(item)) pieces.push(item);
    else for (const piece of item) pieces.push(piece);
  }
  pieces.push(Buffer.from(suffix));
  return pieces;
}


/** A copy of `obj` carrying another resourceVersion (DELETED on selector exit uses the old object). */
export function withResourceVersion<T extends KubeObject>(obj: T, resourceVersion: string): T {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion } };
}
