import { parse } from 'yaml';
import { Msg } from './decodeProto';

// Written from OpenAPIv2.proto independently of the encoder, so a wrong number on either side
// shows up as a round-trip difference.
const STRING_FIELDS: Array<[string, number]> = [
  ['$ref', 1],
  ['format', 2],
  ['title', 3],
  ['description', 4],
  ['pattern', 13],
  ['discriminator', 26],
];
const DOUBLE_FIELDS: Array<[string, number]> = [
  ['multipleOf', 6],
  ['maximum', 7],
  ['minimum', 9],
];
const INT_FIELDS: Array<[string, number]> = [
  ['maxLength', 11],
  ['minLength', 12],
  ['maxItems', 14],
  ['minItems', 15],
  ['maxProperties', 17],
  ['minProperties', 18],
];
const BOOL_FIELDS: Array<[string, number]> = [
  ['exclusiveMaximum', 8],
  ['exclusiveMinimum', 10],
  ['uniqueItems', 16],
  ['readOnly', 27],
];

/** Parses gnostic `Any.yaml` (field 2) as kubectl does (YAML 1.1). */
export function anyToJson(m: Msg): unknown {
  return parse(m.str(2) ?? '', { version: '1.1' });
}

/** Test-only inverse of schemaMessage: gnostic Schema bytes back to swagger 2.0 JSON. */
export function schemaToJson(m: Msg): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, f] of STRING_FIELDS) if (m.has(f)) out[k] = m.str(f);
  for (const [k, f] of DOUBLE_FIELDS) if (m.has(f)) out[k] = m.double(f);
  for (const [k, f] of INT_FIELDS) if (m.has(f)) out[k] = Number(BigInt.asIntN(64, m.varint(f)!));
  for (const [k, f] of BOOL_FIELDS) if (m.has(f)) out[k] = m.varint(f) === 1n;
  if (m.has(5)) out.default = anyToJson(m.msg(5)!);
  if (m.has(19)) out.required = m.strs(19);
  if (m.has(20)) out.enum = m.msgs(20).map(anyToJson);
  if (m.has(21)) {
    const ap = m.msg(21)!;
    out.additionalProperties = ap.has(1) ? schemaToJson(ap.msg(1)!) : ap.varint(2) === 1n;
  }
  if (m.has(22)) {
    const types = m.msg(22)!.strs(1);
    out.type = types.length === 1 ? types[0] : types;
  }
  if (m.has(23)) {
    const items = m.msg(23)!.msgs(1).map(schemaToJson);
    out.items = items.length === 1 ? items[0] : items;
  }
  if (m.has(24)) out.allOf = m.msgs(24).map(schemaToJson);
  if (m.has(25)) {
    out.properties = Object.fromEntries(
      [...m.msg(25)!.named(1)].map(([k, v]) => [k, schemaToJson(v)]),
    );
  }
  if (m.has(30)) out.example = anyToJson(m.msg(30)!);
  for (const [name, value] of m.named(31)) out[name] = anyToJson(value);
  return out;
}
