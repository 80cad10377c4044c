import {
  DATABASE_INSTANCE_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import { jsonTextDepth, MAX_NESTING_DEPTH } from '../nestingDepth';
import { parseYamlText } from '../parseYamlText';
import { badRequest, unsupportedMediaType } from '../StatusError';
import { pruneUnknownFields } from './unknownFields';
import type { FieldValidation } from './writeOptions';

/** Request body media types of create and update (contract §6.3). */
export const OBJECT_MEDIA_TYPES = ['application/json', 'application/yaml'];

/** The media type of a Content-Type header, without parameters, lower-cased ('' when absent). */
export const mediaTypeOf = (contentType: string | undefined) =>
  (contentType ?? '').split(';')[0].trim().toLowerCase();

const unrecognized = (detail: string) =>
  badRequest(`the object provided is unrecognized (must be of type ${DATABASE_INSTANCE_KIND}): ${detail}`);

/**
 * Parses a create/update body: JSON (also when no Content-Type is given) or YAML; anything
 * else is a 415. A body that does not parse is a 400, never a 500.
 */
export function parseObjectBody(body: Buffer | undefined, contentType: string | undefined): unknown {
  const type = mediaTypeOf(contentType);
  if (type && !OBJECT_MEDIA_TYPES.includes(type)) throw unsupportedMediaType(OBJECT_MEDIA_TYPES);
  const text = body?.toString('utf8') ?? '';
  if (!text.trim()) throw unrecognized('empty body');
  const tooDeep = () => unrecognized(`couldn't decode the body: nested deeper than ${MAX_NESTING_DEPTH} levels`);
  const undecodable = (message: string) => unrecognized(`couldn't decode the body: ${message}`);
  if (type === 'application/yaml') return parseYamlText(text, tooDeep, undecodable);
  if (jsonTextDepth(text) > MAX_NESTING_DEPTH) throw tooDeep();
  try {
    return JSON.parse(text);
  } catch (e) {
    throw undecodable((e as Error).message.split('\n')[0]);
  }
}

/**
 * A client-sent value for a message: strings as they are, anything else as JSON. Never String():
 * `{"toString":0}` would make it throw.
 */
export const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v));

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const isStringMap = (v: unknown) =>
  v === undefined || (isObject(v) && Object.values(v).every(x => typeof x === 'string'));

/**
 * The metadata of a create or update body, or the 400 (`fail`) kube's decoder answers for
 * metadata it cannot decode: not an object, a name that is not a string, labels or annotations
 * that are not maps of strings.
 */
export function decodedMetadata(metadata: unknown, fail: (detail: string) => Error): Record<string, unknown> {
  const meta = metadata ?? {};
  if (!isObject(meta)) throw fail('metadata must be an object');
  for (const key of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion'] as const) {
    if (meta[key] !== undefined && typeof meta[key] !== 'string') throw fail(`metadata.${key} must be a string`);
  }
  for (const key of ['labels', 'annotations'] as const) {
    if (!isStringMap(meta[key])) throw fail(`metadata.${key} must be a map of strings`);
  }
  return meta;
}

/** A decoded DatabaseInstance and the warnings its unknown fields produced. */
export interface DecodedInstance {
  /** Typed loosely below `spec`: validation names wrong types with their field paths. */
  instance: DatabaseInstance;
  warnings: string[];
}

/**
 * Decodes a DatabaseInstance as kube-apiserver's create/update handlers do (contract §6.6
 * steps 1–2): apiVersion/kind default to ours, others are a 400; unknown fields are dropped
 * and, per `fieldValidation`, refused (`strict decoding error: unknown field "spec.foo"`),
 * warned about or ignored. Metadata that cannot be decoded at all is a 400.
 */
export function decodeInstance(raw: unknown, fieldValidation: FieldValidation): DecodedInstance {
  if (!isObject(raw)) throw unrecognized('the body is not a JSON object');
  const { apiVersion, kind } = raw;
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== DATABASES_GROUP_VERSION) {
    throw badRequest(
      `the API version in the data (${asText(apiVersion)}) does not match the expected API version (${DATABASES_GROUP_VERSION})`,
    );
  }
  if (kind !== undefined && kind !== '' && kind !== DATABASE_INSTANCE_KIND) {
    throw unrecognized(`no kind "${asText(kind)}" is registered for version "${DATABASES_GROUP_VERSION}"`);
  }
  const { pruned, unknown } = pruneUnknownFields(raw);
  // quoted as Go's %q does in kube's message, so a name holding quotes or backslashes stays readable
  const messages = unknown.map(f => `unknown field ${JSON.stringify(f)}`);
  if (fieldValidation === 'Strict' && messages.length) {
    throw badRequest(`strict decoding error: ${messages.join(', ')}`);
  }
  const metadata = decodedMetadata(pruned.metadata, unrecognized);
  const instance = {
    ...pruned,
    apiVersion: DATABASES_GROUP_VERSION,
    kind: DATABASE_INSTANCE_KIND,
    metadata,
  } as unknown as DatabaseInstance;
  return { instance, warnings: fieldValidation === 'Warn' ? messages : [] };
}
