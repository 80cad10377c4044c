import { ProtoWriter } from './ProtoWriter';
import {
  anyMessage,
  bool,
  externalDocsMessage,
  int,
  isObject,
  num,
  str,
  strs,
  writeNamed,
  writeVendorExtensions,
} from './jsonValues';

// Field numbers of gnostic openapi_v2.Schema (github.com/google/gnostic-models openapiv2/OpenAPIv2.proto).
const F = {
  ref: 1,
  format: 2,
  title: 3,
  description: 4,
  default: 5,
  multipleOf: 6,
  maximum: 7,
  exclusiveMaximum: 8,
  minimum: 9,
  exclusiveMinimum: 10,
  maxLength: 11,
  minLength: 12,
  pattern: 13,
  maxItems: 14,
  minItems: 15,
  uniqueItems: 16,
  maxProperties: 17,
  minProperties: 18,
  required: 19,
  enum: 20,
  additionalProperties: 21,
  type: 22,
  items: 23,
  allOf: 24,
  properties: 25,
  discriminator: 26,
  readOnly: 27,
  xml: 28,
  externalDocs: 29,
  example: 30,
  vendorExtension: 31,
} as const;

/** gnostic `Xml` (name 1, namespace 2, prefix 3, attribute 4, wrapped 5, vendor_extension 6). */
function xmlMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter()
    .string(1, str(value.name))
    .string(2, str(value.namespace))
    .string(3, str(value.prefix))
    .bool(4, bool(value.attribute))
    .bool(5, bool(value.wrapped));
  writeVendorExtensions(w, 6, value);
  return w;
}

/**
 * gnostic `Schema` from a JSON Schema (swagger 2.0 dialect) object, as gnostic's ParseDocument
 * builds it: `type` as TypeItem, `items` as ItemsItem (one schema, or several for a tuple),
 * `additionalProperties` as a schema-or-boolean oneof, `default`/`example`/`enum` as YAML `Any`,
 * `x-*` keys as vendor extensions. Keys swagger 2.0 does not know are dropped. Non-objects give
 * undefined (the caller omits the field).
 */
export function schemaMessage(schema: unknown): ProtoWriter | undefined {
  if (!isObject(schema)) return undefined;
  const s = schema;
  const w = new ProtoWriter()
    .string(F.ref, str(s.$ref))
    .string(F.format, str(s.format))
    .string(F.title, str(s.title))
    .string(F.description, str(s.description));
  if ('default' in s) w.message(F.default, anyMessage(s.default));
  w.double(F.multipleOf, num(s.multipleOf))
    .double(F.maximum, num(s.maximum))
    .bool(F.exclusiveMaximum, bool(s.exclusiveMaximum))
    .double(F.minimum, num(s.minimum))
    .bool(F.exclusiveMinimum, bool(s.exclusiveMinimum))
    .int64(F.maxLength, int(s.maxLength))
    .int64(F.minLength, int(s.minLength))
    .string(F.pattern, str(s.pattern))
    .int64(F.maxItems, int(s.maxItems))
    .int64(F.minItems, int(s.minItems))
    .bool(F.uniqueItems, bool(s.uniqueItems))
    .int64(F.maxProperties, int(s.maxProperties))
    .int64(F.minProperties, int(s.minProperties))
    .strings(F.required, Array.isArray(s.required) ? strs(s.required) : undefined);
  if (Array.isArray(s.enum)) {
    for (const v of s.enum) w.message(F.enum, anyMessage(v));
  }
  const additional = s.additionalProperties;
  if (typeof additional === 'boolean') {
    // oneof member: false is written too, its presence is the meaning
    w.message(F.additionalProperties, new ProtoWriter().bool(2, additional, true));
  } else {
    const sub = schemaMessage(additional);
    if (sub) w.message(F.additionalProperties, new ProtoWriter().message(1, sub));
  }
  const types = strs(s.type);
  if (types) w.message(F.type, new ProtoWriter().strings(1, types));
  if (isObject(s.items)) {
    w.message(F.items, new ProtoWriter().message(1, schemaMessage(s.items)));
  } else if (Array.isArray(s.items)) {
    const items = new ProtoWriter();
    for (const item of s.items) items.message(1, schemaMessage(item));
    w.message(F.items, items);
  }
  if (Array.isArray(s.allOf)) {
    for (const sub of s.allOf) w.message(F.allOf, schemaMessage(sub));
  }
  if (isObject(s.properties)) {
    const props = new ProtoWriter();
    writeNamed(props, 1, s.properties, schemaMessage);
    w.message(F.properties, props);
  }
  w.string(F.discriminator, str(s.discriminator))
    .bool(F.readOnly, bool(s.readOnly))
    .message(F.xml, xmlMessage(s.xml))
    .message(F.externalDocs, externalDocsMessage(s.externalDocs));
  if ('example' in s) w.message(F.example, anyMessage(s.example));
  writeVendorExtensions(w, F.vendorExtension, s);
  return w;
}
