import { ProtoWriter } from './ProtoWriter';
import {
  anyMessage,
  bool,
  externalDocsMessage,
  isObject,
  str,
  strs,
  writeNamed,
  writeVendorExtensions,
} from './jsonValues';
import { jsonReferenceMessage, writeParameters, writePrimitiveFields } from './parameterMessage';
import { schemaMessage } from './schemaMessage';

/** gnostic `Header` (fields 1–17 as writePrimitiveFields, description 18, vendor_extension 19). */
function headerMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter();
  writePrimitiveFields(w, 1, value);
  w.string(18, str(value.description));
  writeVendorExtensions(w, 19, value);
  return w;
}

/** gnostic `FileSchema`, used for a response schema of `type: file`. */
function fileSchemaMessage(s: Record<string, unknown>): ProtoWriter {
  const w = new ProtoWriter()
    .string(1, str(s.format))
    .string(2, str(s.title))
    .string(3, str(s.description));
  if ('default' in s) w.message(4, anyMessage(s.default));
  w.strings(5, Array.isArray(s.required) ? strs(s.required) : undefined)
    .string(6, str(s.type))
    .bool(7, bool(s.readOnly))
    .message(8, externalDocsMessage(s.externalDocs));
  if ('example' in s) w.message(9, anyMessage(s.example));
  writeVendorExtensions(w, 10, s);
  return w;
}

/** gnostic `Response` (description 1, schema 2 as SchemaItem, headers 3, examples 4, vendor_extension 5). */
export function responseMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter().string(1, str(value.description));
  if (isObject(value.schema)) {
    const item =
      value.schema.type === 'file'
        ? new ProtoWriter().message(2, fileSchemaMessage(value.schema))
        : new ProtoWriter().message(1, schemaMessage(value.schema));
    w.message(2, item);
  }
  if (isObject(value.headers)) {
    const headers = new ProtoWriter();
    writeNamed(headers, 1, value.headers, headerMessage);
    w.message(3, headers);
  }
  if (isObject(value.examples)) {
    const examples = new ProtoWriter();
    writeNamed(examples, 1, value.examples, anyMessage);
    w.message(4, examples);
  }
  writeVendorExtensions(w, 5, value);
  return w;
}

/** gnostic `Responses`: NamedResponseValue per status code (1), vendor_extension (2). */
function responsesMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter();
  for (const [code, response] of Object.entries(value)) {
    if (code.startsWith('x-') || !isObject(response)) continue;
    const responseValue =
      typeof response.$ref === 'string'
        ? new ProtoWriter().message(2, jsonReferenceMessage(response))
        : new ProtoWriter().message(1, responseMessage(response));
    w.message(1, new ProtoWriter().string(1, code, true).message(2, responseValue));
  }
  writeVendorExtensions(w, 2, value);
  return w;
}

/** gnostic `SecurityRequirement`: NamedStringArray per scheme name. */
export function securityRequirementMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter();
  writeNamed(w, 1, value, scopes =>
    Array.isArray(scopes) ? new ProtoWriter().strings(1, strs(scopes)) : undefined,
  );
  return w;
}

/** gnostic `Operation` (tags 1 … vendor_extension 13). */
function operationMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const o = value;
  const w = new ProtoWriter()
    .strings(1, Array.isArray(o.tags) ? strs(o.tags) : undefined)
    .string(2, str(o.summary))
    .string(3, str(o.description))
    .message(4, externalDocsMessage(o.externalDocs))
    .string(5, str(o.operationId))
    .strings(6, Array.isArray(o.produces) ? strs(o.produces) : undefined)
    .strings(7, Array.isArray(o.consumes) ? strs(o.consumes) : undefined);
  writeParameters(w, 8, o.parameters);
  w.message(9, responsesMessage(o.responses))
    .strings(10, Array.isArray(o.schemes) ? strs(o.schemes) : undefined)
    .bool(11, bool(o.deprecated));
  if (Array.isArray(o.security)) {
    for (const req of o.security) w.message(12, securityRequirementMessage(req));
  }
  writeVendorExtensions(w, 13, o);
  return w;
}

const OPERATION_FIELDS = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
] as const;

/** gnostic `PathItem` (_ref 1, get…patch 2–8, parameters 9, vendor_extension 10). */
export function pathItemMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter().string(1, str(value.$ref));
  for (const [method, field] of OPERATION_FIELDS) {
    w.message(field, operationMessage(value[method]));
  }
  writeParameters(w, 9, value.parameters);
  writeVendorExtensions(w, 10, value);
  return w;
}

/** gnostic `Paths` (vendor_extension 1, NamedPathItem 2 per path). */
export function pathsMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter();
  writeVendorExtensions(w, 1, value);
  for (const [path, item] of Object.entries(value)) {
    if (path.startsWith('x-')) continue;
    const encoded = pathItemMessage(item);
    if (encoded) w.message(2, new ProtoWriter().string(1, path, true).message(2, encoded));
  }
  return w;
}
