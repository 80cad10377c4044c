import { StoreError } from '../store/types';

/** Content type of kube's protobuf encoding (what kubectl's typed clients send). */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

type FieldType = 'string' | 'strings' | 'extra' | Schema;
interface Schema {
  [field: number]: [name: string, type: FieldType];
}

// Field numbers from k8s.io/api {authentication,authorization}/v1 generated.proto.
const RESOURCE_ATTRIBUTES: Schema = {
  1: ['namespace', 'string'],
  2: ['verb', 'string'],
  3: ['group', 'string'],
  4: ['version', 'string'],
  5: ['resource', 'string'],
  6: ['subresource', 'string'],
  7: ['name', 'string'],
};
const NON_RESOURCE_ATTRIBUTES: Schema = {
  1: ['path', 'string'],
  2: ['verb', 'string'],
};
const OBJECT_META: Schema = { 1: ['name', 'string'] };
const SPECS: Record<string, Schema> = {
  SubjectAccessReview: {
    1: ['resourceAttributes', RESOURCE_ATTRIBUTES],
    2: ['nonResourceAttributes', NON_RESOURCE_ATTRIBUTES],
    3: ['user', 'string'],
    4: ['groups', 'strings'],
    5: ['extra', 'extra'],
    6: ['uid', 'string'],
  },
  SelfSubjectAccessReview: {
    1: ['resourceAttributes', RESOURCE_ATTRIBUTES],
    2: ['nonResourceAttributes', NON_RESOURCE_ATTRIBUTES],
  },
  SelfSubjectRulesReview: { 1: ['namespace', 'string'] },
  TokenReview: { 1: ['token', 'string'], 2: ['audiences', 'strings'] },
};

interface Field {
  no: number;
  wire: number;
  bytes?: Buffer;
}

function readVarint(buf: Buffer, pos: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (let p = pos; p < buf.length && shift < 64; p++) {
    const b = buf[p];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return [value, p + 1];
  }
  throw new Error('truncated varint');
}

function readFields(buf: Buffer): Field[] {
  const fields: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const no = Math.floor(key / 8);
    const wire = key % 8;
    pos = afterKey;
    if (wire === 0) {
      pos = readVarint(buf, pos)[1];
      fields.push({ no, wire });
    } else if (wire === 2) {
      const [len, start] = readVarint(buf, pos);
      if (start + len > buf.length) throw new Error('truncated field');
      fields.push({ no, wire, bytes: buf.subarray(start, start + len) });
      pos = start + len;
    } else if (wire === 1 || wire === 5) {
      pos += wire === 1 ? 8 : 4;
      fields.push({ no, wire });
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return fields;
}

function decodeMessage(buf: Buffer, schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of readFields(buf)) {
    const entry = schema[f.no];
    if (!entry || !f.bytes) continue;
    const [name, type] = entry;
    if (type === 'string') out[name] = f.bytes.toString('utf8');
    else if (type === 'strings')
      ((out[name] ??= []) as string[]).push(f.bytes.toString('utf8'));
    else if (type === 'extra') {
      // map<string, ExtraValue>: entry {1: key, 2: ExtraValue {1: repeated items}}
      const mapEntry = decodeMessage(f.bytes, {
        1: ['key', 'string'],
        2: ['value', { 1: ['items', 'strings'] }],
      });
      const extra = (out[name] ??= {}) as Record<string, string[]>;
      extra[String(mapEntry.key ?? '')] =
        (mapEntry.value as { items?: string[] } | undefined)?.items ?? [];
    } else out[name] = decodeMessage(f.bytes, type);
  }
  return out;
}

/**
 * Decodes a review object (TokenReview, SubjectAccessReview, SelfSubjectAccessReview,
 * SelfSubjectRulesReview, SelfSubjectReview) sent in kube's protobuf envelope (`k8s\0` + runtime.Unknown) into its JSON
 * shape. kubectl's typed clients (`auth can-i`, `auth whoami`) send these as protobuf; the
 * answer can still be JSON, which client-go decodes by the response content type.
 */
export function decodeReviewProtobuf(
  body: Buffer,
  expectedKind: string,
): Record<string, unknown> {
  if (
    body.length < MAGIC.length ||
    !body.subarray(0, MAGIC.length).equals(MAGIC)
  ) {
    throw new StoreError(
      400,
      'BadRequest',
      `error decoding ${expectedKind}: missing protobuf envelope`,
    );
  }
  try {
    const unknown = decodeMessage(body.subarray(MAGIC.length), {
      1: ['typeMeta', { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] }],
      2: ['raw', 'string'],
    });
    const raw =
      readFields(body.subarray(MAGIC.length)).find(f => f.no === 2)?.bytes ??
      Buffer.alloc(0);
    const typeMeta = (unknown.typeMeta ?? {}) as {
      apiVersion?: string;
      kind?: string;
    };
    const kind = typeMeta.kind || expectedKind;
    const specSchema = SPECS[kind] ?? {};
    const object = decodeMessage(raw, {
      1: ['metadata', OBJECT_META],
      2: ['spec', specSchema],
    });
    // SelfSubjectReview has no spec: its field 2 is the status, which the client leaves empty
    if (kind === 'SelfSubjectReview') delete object.spec;
    return { apiVersion: typeMeta.apiVersion, kind, ...object };
  } catch (e) {
    throw new StoreError(
      400,
      'BadRequest',
      `error decoding ${expectedKind}: ${(e as Error).message}`,
    );
  }
}
