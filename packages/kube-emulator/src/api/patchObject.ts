import * as jsonpatch from 'fast-json-patch';
import { StoreError } from '../store/types';
import { errors } from './status';

/** Patch media types the emulator applies. */
export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch: objects merge, `null` deletes, everything else (arrays too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Record<string, unknown> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * Strategic merge patch approximated as a JSON merge patch after dropping SMP directives
 * (`$setElementOrder/…`, `$retainKeys`, `$patch`…): lists are replaced, not merged by key.
 * Good enough for what kubectl sends for the built-in kinds the emulator serves.
 */
export function stripStrategicDirectives(patch: unknown): unknown {
  if (Array.isArray(patch)) return patch.map(stripStrategicDirectives);
  if (!isObj(patch)) return patch;
  if (patch.$patch === 'delete') return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    out[k] = stripStrategicDirectives(v);
  }
  return out;
}

/** Applies a patch body of the given media type to `current`; errors are kube's 400/422. */
export function applyPatch(
  mediaType: string,
  current: Record<string, unknown>,
  body: string,
  kindForErrors: { kind: string; group: string; name: string },
): Record<string, unknown> {
  let patch: unknown;
  try {
    patch = JSON.parse(body);
  } catch (e) {
    throw errors.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  if (mediaType === JSON_PATCH) {
    if (!Array.isArray(patch))
      throw errors.badRequest(
        'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      );
    try {
      return jsonpatch.applyPatch(
        structuredClone(current),
        patch as jsonpatch.Operation[],
        true,
        false,
      ).newDocument;
    } catch (e) {
      const message = (e as Error).message.split('\n')[0];
      const qualified = kindForErrors.group
        ? `${kindForErrors.kind}.${kindForErrors.group}`
        : kindForErrors.kind;
      throw new StoreError(
        422,
        'Invalid',
        `${qualified} "${kindForErrors.name}" is invalid: ${message}`,
        {
          name: kindForErrors.name,
          group: kindForErrors.group,
          kind: kindForErrors.kind,
          causes: [{ reason: 'FieldValueInvalid', message }],
        },
      );
    }
  }
  if (!isObj(patch))
    throw errors.badRequest(
      'error decoding patch: the patch is not a JSON object',
    );
  const effective =
    mediaType === STRATEGIC_MERGE_PATCH
      ? stripStrategicDirectives(patch)
      : patch;
  return mergePatch(current, effective) as Record<string, unknown>;
}
