import { ProtoWriter } from './ProtoWriter';
import {
  externalDocsMessage,
  isObject,
  str,
  strs,
  type JsonObject,
  writeNamed,
  writeVendorExtensions,
} from './jsonValues';
import { parameterMessage } from './parameterMessage';
import { pathsMessage, responseMessage, securityRequirementMessage } from './pathsMessage';
import { schemaMessage } from './schemaMessage';

/** gnostic `Info` (title 1, version 2, description 3, terms_of_service 4, contact 5, license 6, vendor_extension 7). */
function infoMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const w = new ProtoWriter()
    .string(1, str(value.title))
    .string(2, str(value.version))
    .string(3, str(value.description))
    .string(4, str(value.termsOfService));
  if (isObject(value.contact)) {
    const c = new ProtoWriter()
      .string(1, str(value.contact.name))
      .string(2, str(value.contact.url))
      .string(3, str(value.contact.email));
    writeVendorExtensions(c, 4, value.contact);
    w.message(5, c);
  }
  if (isObject(value.license)) {
    const l = new ProtoWriter().string(1, str(value.license.name)).string(2, str(value.license.url));
    writeVendorExtensions(l, 3, value.license);
    w.message(6, l);
  }
  writeVendorExtensions(w, 7, value);
  return w;
}

/**
 * gnostic `SecurityDefinitionsItem` oneof: basic (1), apiKey (2), oauth2 implicit (3),
 * password (4), application (5), accessCode (6). Anything else gives undefined.
 */
function securityDefinitionMessage(value: unknown): ProtoWriter | undefined {
  if (!isObject(value)) return undefined;
  const d = value;
  const scopes = (): ProtoWriter | undefined => {
    if (!isObject(d.scopes)) return undefined;
    // NamedString carries a plain string value (2), not a message
    const w = new ProtoWriter();
    for (const [name, v] of Object.entries(d.scopes)) {
      if (typeof v === 'string') w.message(1, new ProtoWriter().string(1, name, true).string(2, v, true));
    }
    return w;
  };
  let member: number;
  const w = new ProtoWriter().string(1, str(d.type));
  if (d.type === 'basic') {
    member = 1;
    w.string(2, str(d.description));
    writeVendorExtensions(w, 3, d);
  } else if (d.type === 'apiKey') {
    member = 2;
    w.string(2, str(d.name)).string(3, str(d.in)).string(4, str(d.description));
    writeVendorExtensions(w, 5, d);
  } else if (d.type === 'oauth2') {
    const flows: Record<string, number> = { implicit: 3, password: 4, application: 5, accessCode: 6 };
    member = typeof d.flow === 'string' ? flows[d.flow] : 0;
    if (!member) return undefined;
    w.string(2, d.flow as string).message(3, scopes());
    if (member === 6) {
      w.string(4, str(d.authorizationUrl)).string(5, str(d.tokenUrl)).string(6, str(d.description));
      writeVendorExtensions(w, 7, d);
    } else {
      w.string(4, str(member === 3 ? d.authorizationUrl : d.tokenUrl)).string(5, str(d.description));
      writeVendorExtensions(w, 6, d);
    }
  } else {
    return undefined;
  }
  return new ProtoWriter().message(member, w);
}

/** Wraps `Named<T>` pairs of a JSON map into a container message (field 1 of the container). */
function namedContainer(
  map: unknown,
  encode: (value: unknown) => ProtoWriter | undefined,
): ProtoWriter | undefined {
  if (!isObject(map)) return undefined;
  const w = new ProtoWriter();
  writeNamed(w, 1, map, encode);
  return w;
}

/**
 * Encodes a Swagger 2.0 JSON document as the protobuf `openapi.v2.Document` of
 * github.com/google/gnostic-models (OpenAPIv2.proto), the body kube-apiserver sends for
 * `GET /openapi/v2` with `Accept: application/com.github.proto-openapi.spec.v2.v1.0+protobuf`
 * and that kubectl ≤ 1.27 `explain` decodes. Fields are written in field-number order as Go's
 * proto.Marshal does; malformed parts are omitted rather than thrown on, so a quirky extension
 * server cannot break the endpoint.
 */
export function encodeOpenApiV2Document(doc: JsonObject): Buffer {
  const w = new ProtoWriter()
    .string(1, str(doc.swagger))
    .message(2, infoMessage(doc.info))
    .string(3, str(doc.host))
    .string(4, str(doc.basePath))
    .strings(5, Array.isArray(doc.schemes) ? strs(doc.schemes) : undefined)
    .strings(6, Array.isArray(doc.consumes) ? strs(doc.consumes) : undefined)
    .strings(7, Array.isArray(doc.produces) ? strs(doc.produces) : undefined)
    .message(8, pathsMessage(doc.paths))
    .message(9, namedContainer(doc.definitions, schemaMessage))
    .message(10, namedContainer(doc.parameters, parameterMessage))
    .message(11, namedContainer(doc.responses, responseMessage));
  if (Array.isArray(doc.security)) {
    for (const req of doc.security) w.message(12, securityRequirementMessage(req));
  }
  w.message(13, namedContainer(doc.securityDefinitions, securityDefinitionMessage));
  if (Array.isArray(doc.tags)) {
    for (const tag of doc.tags) {
      if (!isObject(tag)) continue;
      const t = new ProtoWriter()
        .string(1, str(tag.name))
        .string(2, str(tag.description))
        .message(3, externalDocsMessage(tag.externalDocs));
      writeVendorExtensions(t, 4, tag);
      w.message(14, t);
    }
  }
  w.message(15, externalDocsMessage(doc.externalDocs));
  writeVendorExtensions(w, 16, doc);
  return w.finish();
}
