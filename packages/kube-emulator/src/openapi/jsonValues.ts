import { stringify } from 'yaml';
import { ProtoWriter } from './ProtoWriter';

/** A JSON object as read from a swagger document (shape unchecked). */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value if it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value if it is a boolean, else undefined. */
export function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** The value if it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The value if it is an integer (int64 fields), else undefined. */
export function int(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

/** The string elements of an array; a lone string counts as a one-element list. */
export function strs(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return undefined;
  return value.filter((v): v is string => typeof v === 'string');
}

/**
 * gnostic `Any`: arbitrary JSON carried as YAML text in field 2. Readers (kube-openapi's
 * vendorExtensionToMap, kubectl) parse it with gopkg.in/yaml.v2, a YAML 1.1 parser, so strings
 * such as `yes` or `on` must be quoted: serialise as YAML 1.1, never folding long lines.
 */
export function anyMessage(value: unknown): ProtoWriter {
  const yaml = stringify(value === undefined ? null : value, {
    version: '1.1',
    lineWidth: 0,
  });
  return new ProtoWriter().string(2, yaml);
}

/** Writes one gnostic `NamedAny` (name = 1, value = 2) per `x-` key of `obj`, in key order. */
export function writeVendorExtensions(
  w: ProtoWriter,
  field: number,
  obj: JsonObject,
): void {
  for (const [name, value] of Object.entries(obj)) {
    if (!name.startsWith('x-')) continue;
    w.message(field, new ProtoWriter().string(1, name, true).message(2, anyMessage(value)));
  }
}

/**
 * Writes a JSON map as gnostic's ordered `Named<T>` pairs (name = 1, value = 2) into `field`,
 * skipping entries `encode` rejects (undefined). `x-` keys are left to {@link writeVendorExtensions}.
 */
export function writeNamed(
  w: ProtoWriter,
  field: number,
  map: unknown,
  encode: (value: unknown) => ProtoWriter | undefined,
): void {
  if (!isObject(map)) return;
  for (const [name, value] of Object.entries(map)) {
    const encoded = encode(value);
    if (encoded) w.message(field, new ProtoWriter().string(1, name, true).message(2, encoded));
  }
}

/** gnostic `ExternalDocs` (description = 1, url = 2, vendor_extension = 3). */
export function externalDocsMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter().string(1, str(value.description)).string(2, str(value.url));
  writeVendorExtensions(w, 3, value);
  return w;
}
