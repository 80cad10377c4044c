import type { HandlerContext } from '../readHandlers';
import { applyInstance } from './applyInstance';
import { applyParsedPatch, APPLY_PATCH_TYPE, parsePatch } from './applyPatch';
import { mediaTypeOf, parseObjectBody } from './decodeInstance';
import { runUpdate } from './runUpdate';
import type { WriteDeps } from './WriteDeps';
import { parseWriteOptions } from './writeOptions';

/** PUT .../databaseinstances/{name} (contract §6.7). */
export async function updateInstance(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  const options = parseWriteOptions(ctx.query, 'UpdateOptions');
  const body = parseObjectBody(ctx.body, ctx.req.headers['content-type']);
  await runUpdate(ctx, deps, options, () => ({ object: body }));
}

/** PATCH .../databaseinstances/{name} with a JSON merge patch, a JSON patch (contract §6.8) or an apply. */
export async function patchInstance(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  if (mediaTypeOf(ctx.req.headers['content-type']) === APPLY_PATCH_TYPE) {
    await applyInstance(ctx, deps);
    return;
  }
  const parsed = parsePatch(ctx.body, ctx.req.headers['content-type']);
  const options = parseWriteOptions(ctx.query, 'PatchOptions');
  // patch the JSON clients see, status included, so `test` ops on any field work
  await runUpdate(ctx, deps, options, current => ({ object: applyParsedPatch(JSON.parse(JSON.stringify(current)), parsed) }), patchPinsResourceVersion(parsed));
}

/**
 * Whether a patch itself sets `metadata.resourceVersion` (a precondition, as in kube). One that
 * does not applies to whatever is current: the resourceVersion the patched JSON carries is the
 * served instance's, which may trail the operator object by a batch of the cache, and must not
 * make a fresh patch a 409.
 */
function patchPinsResourceVersion(parsed: ReturnType<typeof parsePatch>): boolean {
  if (parsed.type === 'application/merge-patch+json') {
    const rv = (parsed.patch as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
    return rv !== undefined && rv !== null;
  }
  return parsed.patch.some(op => op?.path === '/metadata/resourceVersion' && (op.op === 'add' || op.op === 'replace' || op.op === 'test'));
}

