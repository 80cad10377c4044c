import fc from 'fast-check';
import YAML from 'yaml';
import { hostileString } from './hostileStrings';
import { applyMutation, deeplyNestedJson, hostileYaml, malformedJson, mutation, unknownFieldName, anyJsonValue, type Mutation } from './instanceDocuments';

/** The largest body the apiserver takes (kube-apiserver's 3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** What a generated body is, so the oracle knows the answer some of them must get. */
export type BodyKind =
  | 'valid' // a valid document, as JSON or YAML per its Content-Type
  | 'unknownFields' // a valid document plus unknown fields (named in `unknown`)
  | 'mutated' // wrong types, missing or extra fields anywhere
  | 'malformed' // not JSON at all
  | 'deep' // nesting far beyond any real document
  | 'yaml' // hostile YAML
  | 'oversized' // more than MAX_BODY_BYTES
  | 'empty'
  | 'binary'; // bytes that are not UTF-8 inside a JSON string (read as U+FFFD, as Go's decoder does)

/** A request body and how it was made. */
export interface WriteBody {
  kind: BodyKind;
  /** The document before serialisation (valid, unknownFields, mutated). */
  doc?: unknown;
  /** Field paths of the unknown fields added (unknownFields). */
  unknown: string[];
  /** Serialises for a Content-Type (YAML for `application/yaml`, else JSON). */
  text(contentType: string): string | Buffer;
}

const OVERSIZED = Buffer.alloc(MAX_BODY_BYTES + 1, ' ');

const serialise = (doc: unknown) => (contentType: string) =>
  contentType.toLowerCase().startsWith('application/yaml') ? YAML.stringify(doc) : JSON.stringify(doc) ?? '';

/** Unknown fields at the top, in metadata and in spec of a document that is otherwise valid. */
const unknownFields = () =>
  fc.array(
    fc.record({ parent: fc.constantFrom<readonly string[]>([], ['metadata'], ['spec'], ['spec', 'storage']), key: unknownFieldName(), value: anyJsonValue() }),
    { minLength: 1, maxLength: 3 },
  );

/**
 * Bodies of creates and updates, built from a valid document: the document itself, with unknown
 * fields, mutated, or replaced by malformed, deep, YAML, oversized, empty or binary content.
 */
export function writeBody(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<WriteBody> {
  return fc.oneof(
    { weight: 10, arbitrary: valid.map(doc => ({ kind: 'valid' as const, doc, unknown: [], text: serialise(doc) })) },
    {
      weight: 10,
      arbitrary: fc.tuple(valid, unknownFields()).map(([doc, fields]) => {
        const unknown: string[] = [];
        let out: unknown = doc;
        for (const f of fields) {
          const path = [...f.parent, f.key].join('.');
          if (unknown.includes(path)) continue;
          unknown.push(path);
          out = applyMutation(out, { op: 'unknown', path: f.parent, key: f.key, value: f.value } as Mutation);
        }
        return { kind: 'unknownFields' as const, doc: out, unknown, text: serialise(out) };
      }),
    },
    {
      weight: 25,
      arbitrary: fc.tuple(valid, fc.array(mutation(), { minLength: 1, maxLength: 3 })).map(([doc, ms]) => {
        const out = ms.reduce<unknown>(applyMutation, doc);
        return { kind: 'mutated' as const, doc: out, unknown: [], text: serialise(out) };
      }),
    },
    { weight: 5, arbitrary: malformedJson().map(t => ({ kind: 'malformed' as const, unknown: [], text: () => t })) },
    { weight: 5, arbitrary: deeplyNestedJson().map(t => ({ kind: 'deep' as const, unknown: [], text: () => t })) },
    { weight: 5, arbitrary: hostileYaml().map(t => ({ kind: 'yaml' as const, unknown: [], text: () => t })) },
    { weight: 5, arbitrary: fc.constantFrom('', ' ', '\n').map(t => ({ kind: 'empty' as const, unknown: [], text: () => t })) },
    {
      weight: 5,
      arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map(b => ({ kind: 'binary' as const, unknown: [], text: () => Buffer.concat([Buffer.from('{"metadata":{"name":"'), Buffer.from(b), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]) })),
    },
    { weight: 1, arbitrary: fc.constant<WriteBody>({ kind: 'oversized', unknown: [], text: () => OVERSIZED }) },
    { weight: 5, arbitrary: hostileString(200).map(t => ({ kind: 'malformed' as const, unknown: [], text: () => t })).filter(b => {
      try {
        JSON.parse(b.text());
        return false;
      } catch {
        return true;
      }
    }) },
  );
}
