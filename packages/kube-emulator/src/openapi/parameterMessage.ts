import { ProtoWriter } from './ProtoWriter';
import {
  anyMessage,
  bool,
  int,
  isObject,
  num,
  str,
  type JsonObject,
  writeVendorExtensions,
} from './jsonValues';
import { schemaMessage } from './schemaMessage';

/**
 * Writes the validation fields gnostic repeats, in one fixed order, in PrimitivesItems, Header
 * and the non-body parameter sub-schemas: type, format, items, collectionFormat, default,
 * maximum, exclusiveMaximum, minimum, exclusiveMinimum, maxLength, minLength, pattern, maxItems,
 * minItems, uniqueItems, enum, multipleOf at consecutive field numbers starting at `typeField`.
 */
export function writePrimitiveFields(w: ProtoWriter, typeField: number, o: JsonObject): void {
  const f = typeField;
  w.string(f, str(o.type))
    .string(f + 1, str(o.format))
    .message(f + 2, primitivesItemsMessage(o.items))
    .string(f + 3, str(o.collectionFormat));
  if ('default' in o) w.message(f + 4, anyMessage(o.default));
  w.double(f + 5, num(o.maximum))
    .bool(f + 6, bool(o.exclusiveMaximum))
    .double(f + 7, num(o.minimum))
    .bool(f + 8, bool(o.exclusiveMinimum))
    .int64(f + 9, int(o.maxLength))
    .int64(f + 10, int(o.minLength))
    .string(f + 11, str(o.pattern))
    .int64(f + 12, int(o.maxItems))
    .int64(f + 13, int(o.minItems))
    .bool(f + 14, bool(o.uniqueItems));
  if (Array.isArray(o.enum)) for (const v of o.enum) w.message(f + 15, anyMessage(v));
  w.double(f + 16, num(o.multipleOf));
}

/** gnostic `PrimitivesItems` (fields 1–17 as {@link writePrimitiveFields}, vendor_extension 18). */
export function primitivesItemsMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter();
  writePrimitiveFields(w, 1, value);
  writeVendorExtensions(w, 18, value);
  return w;
}

// NonBodyParameter oneof members; formData and query carry allow_empty_value (5) before type.
const NON_BODY: Record<string, { field: number; allowEmpty: boolean }> = {
  header: { field: 1, allowEmpty: false },
  formData: { field: 2, allowEmpty: true },
  query: { field: 3, allowEmpty: true },
  path: { field: 4, allowEmpty: false },
};

/**
 * gnostic `Parameter`: `in: body` → BodyParameter (1); header/formData/query/path →
 * NonBodyParameter (2) with the matching sub-schema. Unknown `in` gives undefined.
 */
export function parameterMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const p = value;
  if (p.in === 'body') {
    const body = new ProtoWriter()
      .string(1, str(p.description))
      .string(2, str(p.name))
      .string(3, 'body')
      .bool(4, bool(p.required))
      .message(5, schemaMessage(p.schema));
    writeVendorExtensions(body, 6, p);
    return new ProtoWriter().message(1, body);
  }
  const kind = typeof p.in === 'string' ? NON_BODY[p.in] : undefined;
  if (!kind) return undefined;
  const sub = new ProtoWriter()
    .bool(1, bool(p.required))
    .string(2, str(p.in))
    .string(3, str(p.description))
    .string(4, str(p.name));
  if (kind.allowEmpty) sub.bool(5, bool(p.allowEmptyValue));
  const typeField = kind.allowEmpty ? 6 : 5;
  writePrimitiveFields(sub, typeField, p);
  writeVendorExtensions(sub, typeField + 17, p);
  return new ProtoWriter().message(2, new ProtoWriter().message(kind.field, sub));
}

/** gnostic `JsonReference` (_ref 1, description 2). */
export function jsonReferenceMessage(value: JsonObject): ProtoWriter {
  return new ProtoWriter().string(1, str(value.$ref)).string(2, str(value.description));
}

/** gnostic `ParametersItem`: a `$ref` object → JsonReference (2), else Parameter (1). */
export function parametersItemMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.$ref === 'string') {
    return new ProtoWriter().message(2, jsonReferenceMessage(value));
  }
  const parameter = parameterMessage(value);
  return parameter && new ProtoWriter().message(1, parameter);
}

/** Writes each element of a `parameters` array as a `ParametersItem` into `field`. */
export function writeParameters(w: ProtoWriter, field: number, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const item of list) w.message(field, parametersItemMessage(item));
}
