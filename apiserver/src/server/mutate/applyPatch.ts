import { badRequest, StatusError, unsupportedMediaType } from '../StatusError';
import { jsonTextDepth, MAX_NESTING_DEPTH, tooDeep, valueDepth } from '../nestingDepth';
import { mediaTypeOf } from './decodeInstance';
import { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from './jsonPatch';
import { applyMergePatch } from './mergePatch';

/** Server-side apply's patch type (kubectl, client-go and controller-runtime send it, JSON or YAML). */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** Patch types served (contract §6.8, §6.9); strategic merge patch is not (no CRD has it either). */
export const PATCH_MEDIA_TYPES = ['application/json-patch+json', 'application/merge-patch+json', APPLY_PATCH_TYPE];

/** kube-apiserver's cap on the number of JSON patch operations. */
const MAX_JSON_PATCH_OPERATIONS = 10_000;

/** A parsed patch body of a supported type. */
export type ParsedPatch =
  | { type: 'application/merge-patch+json'; patch: unknown }
  | { type: 'application/json-patch+json'; patch: JsonPatchOperation[] };

/**
 * Checks the patch type (415 for anything else, strategic merge and apply included, with the
 * list the garbage collector and kubectl expect) and parses the body (400 when it is not JSON).
 */
export function parsePatch(body: Buffer | undefined, contentType: string | undefined): ParsedPatch {
  const type = mediaTypeOf(contentType);
  if (!PATCH_MEDIA_TYPES.includes(type) || type === APPLY_PATCH_TYPE) throw unsupportedMediaType(PATCH_MEDIA_TYPES);
  const text = body?.toString('utf8') ?? '';
  if (jsonTextDepth(text) > MAX_NESTING_DEPTH) throw tooDeep('error decoding patch');
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch (e) {
    throw badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  if (type === 'application/json-patch+json') {
    if (!Array.isArray(patch)) throw badRequest('error decoding patch: a JSON patch must be an array of operations');
    if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
      throw new StatusError(413, 'RequestEntityTooLarge', `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
    }
    return { type, patch: patch as JsonPatchOperation[] };
  }
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw badRequest('error decoding patch: a merge patch must be a JSON object');
  }
  return { type: 'application/merge-patch+json', patch };
}

/**
 * Applies a patch to the JSON of the current object. A JSON patch operation that cannot be
 * applied (a failed `test`, a missing path, an unknown op) is a 422 Invalid, as in
 * kube-apiserver; the result then goes through the update path like a PUT body.
 */
export function applyParsedPatch(current: unknown, parsed: ParsedPatch): unknown {
  if (parsed.type === 'application/merge-patch+json') return applyMergePatch(current, parsed.patch);
  let patched: unknown;
  try {
    patched = applyJsonPatch(current, parsed.patch);
  } catch (e) {
    if (!(e instanceof JsonPatchError)) throw e;
    throw new StatusError(422, 'Invalid', `the JSON patch could not be applied (operation ${e.index}): ${e.message}`);
  }
  // operations can nest values into each other past what a body may hold
  if (valueDepth(patched) > MAX_NESTING_DEPTH) {
    throw new StatusError(422, 'Invalid', `the JSON patch could not be applied: the result is nested deeper than ${MAX_NESTING_DEPTH} levels`);
  }
  return patched;
}
