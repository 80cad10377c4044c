import {
  DATABASE_BACKUP_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseBackup,
  type ObjectMeta,
} from '@internal/plugin-databases-common';
import { badRequest } from '../StatusError';
import { asText, decodedMetadata } from './decodeInstance';
import type { FieldValidation } from './writeOptions';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Per path, the fields an object has ('' is the top level; metadata is checked apart). */
export type KnownFields = Record<string, readonly string[]>;

/** The fields a DatabaseBackup has (status is the server's: accepted and dropped, as kube does). */
const KNOWN: KnownFields = {
  '': ['apiVersion', 'kind', 'metadata', 'spec', 'status'],
  spec: ['instanceRef', 'method'],
  'spec.instanceRef': ['name'],
};
const META_KEYS = ['name', 'generateName', 'namespace', 'labels', 'annotations', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences', 'finalizers', 'managedFields', 'selfLink'];

/** Unknown field paths of a body, as kube's strict decoder names them. */
function unknownFields(raw: Record<string, unknown>, known: KnownFields): string[] {
  const found: string[] = [];
  const walk = (obj: Record<string, unknown>, path: string) => {
    for (const key of Object.keys(obj)) {
      const here = path ? `${path}.${key}` : key;
      if (path === 'metadata') {
        if (!META_KEYS.includes(key)) found.push(here);
        continue;
      }
      if (!(known[path] ?? []).includes(key)) found.push(here);
      else if (known[here] && isObject(obj[key])) walk(obj[key] as Record<string, unknown>, here);
    }
    if (path === '' && isObject(obj.metadata)) walk(obj.metadata, 'metadata');
  };
  walk(raw, '');
  return found;
}

/**
 * Decodes a create or update body of one of our kinds as kube-apiserver decodes a custom
 * resource: apiVersion and kind default to ours (others are a 400), unknown fields are refused,
 * warned about or ignored per `fieldValidation`, metadata or spec that is not an object is a
 * 400. Types below `spec` are left to validation, which names each bad field.
 */
export function decodeBody(
  raw: unknown,
  kind: string,
  known: KnownFields,
  fieldValidation: FieldValidation,
): { metadata: ObjectMeta; spec: Record<string, unknown>; warnings: string[] } {
  const unrecognized = (detail: string) =>
    badRequest(`the object provided is unrecognized (must be of type ${kind}): ${detail}`);
  if (!isObject(raw)) throw unrecognized('the body is not a JSON object');
  const { apiVersion } = raw;
  if (apiVersion !== undefined && apiVersion !== '' && apiVersion !== DATABASES_GROUP_VERSION) {
    throw badRequest(`the API version in the data (${asText(apiVersion)}) does not match the expected API version (${DATABASES_GROUP_VERSION})`);
  }
  if (raw.kind !== undefined && raw.kind !== '' && raw.kind !== kind) {
    throw unrecognized(`no kind "${asText(raw.kind)}" is registered for version "${DATABASES_GROUP_VERSION}"`);
  }
  const metadata = decodedMetadata(raw.metadata, unrecognized);
  if (raw.spec !== undefined && !isObject(raw.spec)) throw unrecognized('spec must be an object');
  const unknown = unknownFields(raw, known);
  const warnings: string[] = [];
  if (unknown.length && fieldValidation === 'Strict') {
    throw badRequest(`strict decoding error: ${unknown.map(f => `unknown field ${JSON.stringify(f)}`).join(', ')}`);
  }
  if (fieldValidation === 'Warn') warnings.push(...unknown.map(f => `unknown field ${JSON.stringify(f)}`));
  return { metadata: metadata as ObjectMeta, spec: (raw.spec ?? {}) as Record<string, unknown>, warnings };
}

/** A DatabaseBackup create body, decoded (see decodeBody). */
export function decodeBackup(raw: unknown, fieldValidation: FieldValidation): { backup: DatabaseBackup; warnings: string[] } {
  const { metadata, spec, warnings } = decodeBody(raw, DATABASE_BACKUP_KIND, KNOWN, fieldValidation);
  return {
    backup: {
      apiVersion: DATABASES_GROUP_VERSION,
      kind: DATABASE_BACKUP_KIND,
      metadata,
      spec: {
        instanceRef: (spec.instanceRef ?? undefined) as DatabaseBackup['spec']['instanceRef'],
        ...(spec.method !== undefined ? { method: spec.method as string } : {}),
      },
    },
    warnings,
  };
}
