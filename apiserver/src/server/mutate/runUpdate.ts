import {
  DATABASE_INSTANCE_KIND,
  DATABASE_INSTANCE_PLURAL,
  DATABASES_API_GROUP,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../../adapters/types';
import { managedTime, managerName, recordManagers, recordUpdate, requestManagers, type Manager } from '../../managedFields';
import { invalid as invalidCause } from '../../writes/FieldCause';
import { prepareUpdate } from '../../writes/validateSpec';
import type { HandlerContext } from '../readHandlers';
import { badRequest, invalid, notFound } from '../StatusError';
import { decodeInstance } from './decodeInstance';
import { applyMetadataChanges, effectiveMetadata } from './instanceMetadata';
import { createMergePatch } from './mergePatch';
import { awaitRecentCreate, projectObject, sendObject, servedFrom, staleResourceVersion, waitForCache } from './respondInstance';
import { conflict, preconditionFailed, toWriteError } from './toWriteError';
import { validateMetadata } from './validateMetadata';
import type { WriteDeps } from './WriteDeps';
import type { WriteOptions } from './writeOptions';

/** Bound on the tries of one update, status-only conflicts included (kube-apiserver: 5 counted). */
const MAX_TRIES = 20;
/** Re-runs start only this long after the request came in: an update never hangs on retries. */
const RETRY_BUDGET_MS = 10_000;

/** True when two versions of an operator object differ in nothing but status and bookkeeping. */
function onlyStatusChanged(before: KubeObject, after: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { status: _s, metadata, ...rest } = o as KubeObject & { status?: unknown };
    const { resourceVersion: _rv, managedFields: _mf, generation: _g, ...meta } = metadata ?? {};
    return JSON.stringify({ ...rest, metadata: meta });
  };
  return strip(before) === strip(after);
}

/**
 * Turns the instance as served now into the object the client wants (PUT body, patched JSON,
 * applied configuration) and, for an apply, who owns which field after it (an update is
 * recorded under its own manager).
 */
export type Desired = (current: DatabaseInstance, now: string) => { object: unknown; managers?: Manager[]; warnings?: string[] };

/**
 * The update path shared by PUT and PATCH: immutable name/namespace/uid, optimistic
 * concurrency, validation (422), what the operator cannot do (422 naming the field), policy
 * (403), then a merge patch of the operator object conditioned on its resourceVersion.
 *
 * Staleness (staleResourceVersion): a client's `metadata.resourceVersion` is stale when the
 * operator object changed after it in a way served. An empty resourceVersion, or a
 * patch that does not set one (`pinned` false), updates unconditionally. When kube-apiserver
 * reports a conflict the client could not have
 * seen (our cache was behind), the update is re-run on the newer object, as kube-apiserver
 * does for patches; a client-pinned resourceVersion then yields the 409.
 */
export async function runUpdate(ctx: HandlerContext, deps: WriteDeps, options: WriteOptions, desiredOf: Desired, pinned = true): Promise<void> {
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  const user = ctx.user ?? { username: '', groups: [] };
  await deps.locks.run(`${namespace}/${name}`, async () => {
    const retryUntil = Date.now() + RETRY_BUDGET_MS;
    await awaitRecentCreate(deps, namespace, name);
    // conflicts that only an operator's status write caused are retried without counting: under
    // a busy operator (a status per reconcile) a few counted attempts are not enough
    let attempt = 1;
    for (let tries = 1; ; tries++) {
      const current = deps.store.get(namespace, name);
      const source = deps.store.source(namespace, name);
      if (!current || !source) throw notFound(DATABASE_INSTANCE_PLURAL, name);
      const now = managedTime();
      const intent = desiredOf(current, now);
      const { instance: desired, warnings } = decodeInstance(intent.object, options.fieldValidation);
      warnings.unshift(...(intent.warnings ?? []));
      const meta = desired.metadata;
      if (meta.name && meta.name !== name) {
        throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
      }
      if (meta.namespace && meta.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      const uid = current.metadata.uid ?? '';
      if (meta.uid && meta.uid !== uid) throw preconditionFailed(name, 'UID', meta.uid, uid);
      const sourceRv = source.object.metadata?.resourceVersion;
      const rv = pinned ? meta.resourceVersion : undefined;
      if (rv) {
        if (!/^\d+$/.test(rv)) {
          throw invalid(DATABASE_INSTANCE_KIND, DATABASES_API_GROUP, name, [
            invalidCause('metadata.resourceVersion', rv, 'must be a resourceVersion this server returned'),
          ]);
        }
        if (staleResourceVersion(deps, namespace, name, rv, sourceRv, current.metadata.resourceVersion)) throw conflict(name);
      }

      const prepared = prepareUpdate(source.object, desired.spec, current.spec, deps.adapters, deps.validation, {
        members: current.status?.members,
        now: new Date().toISOString(),
      });
      const causes = [...validateMetadata(meta), ...('causes' in prepared ? prepared.causes : [])];
      if (causes.length || 'causes' in prepared) throw invalid(DATABASE_INSTANCE_KIND, DATABASES_API_GROUP, name, causes);

      const refusal = await deps.policy.check({
        namespace,
        name,
        spec: prepared.spec,
        previousSpec: current.spec,
        user,
        current: deps.store.list(namespace),
      });
      if (refusal) throw refusal;

      const managers =
        intent.managers ??
        recordUpdate(
          current,
          { ...desired, metadata: effectiveMetadata(meta, current.metadata) },
          requestManagers(meta.managedFields, current.metadata),
          managerName(options.fieldManager, ctx.req.headers['user-agent']),
          now,
        );
      const object = recordManagers(applyMetadataChanges(prepared.object, current.metadata, meta), managers);
      const patch = createMergePatch(source.object, object);
      if (Object.keys(patch).length === 0) {
        // no-op: no write, no new resourceVersion, no watch event
        sendObject(ctx.res, ctx.req.headers.accept, 200, current, warnings);
        return;
      }
      if (options.dryRun) {
        // what the client will see next: with the related objects and the rollout memory, so a
        // scale of a Ready instance previews as Updating, not as Degraded for its missing members
        const wouldBe = deps.store.preview?.(namespace, name, object) ?? projectObject(source, object, name);
        wouldBe.metadata.resourceVersion = current.metadata.resourceVersion;
        // as kube-apiserver's dry run: the generation the write would give the operator object
        if ('spec' in patch && current.metadata.generation !== undefined) wouldBe.metadata.generation = current.metadata.generation + 1;
        sendObject(ctx.res, ctx.req.headers.accept, 200, wouldBe, warnings);
        return;
      }
      const sourceName = source.object.metadata?.name ?? name;
      let updated;
      try {
        updated = await patchObject(deps, source.kind, namespace, sourceName, patch, sourceRv);
      } catch (err) {
        const status = toWriteError(err, { verb: 'patch', name, namespace, type: source.kind });
        if (status.code === 409 && attempt < deps.updateAttempts && tries < MAX_TRIES && Date.now() < retryUntil) {
          await waitForCache(deps, () => deps.store.source(namespace, name)?.object.metadata?.resourceVersion !== sourceRv);
          const newer = deps.store.source(namespace, name)?.object;
          if (!newer || !onlyStatusChanged(source.object, newer)) attempt++;
          continue;
        }
        throw status.code === 409 ? conflict(name) : status;
      }
      const updatedRv = updated.metadata?.resourceVersion;
      // the served instance, not the source object: the cache re-projects after the informer has it
      const seen = await waitForCache(deps, () => servedFrom(deps, namespace, name, updatedRv));
      const answer = (seen && deps.store.get(namespace, name)) || projectObject(source, updated, name);
      sendObject(ctx.res, ctx.req.headers.accept, 200, answer, warnings);
      return;
    }
  });
}

/**
 * Writes a merge patch of the operator object at `rv`: the spec and metadata part to the
 * object, the status part (an operator that takes requests there: CloudNativePG's
 * targetPrimary, as `kubectl cnpg promote` writes it) to its status subresource, after it, at
 * the resourceVersion the first write gave. Resolves the object as last written.
 */
async function patchObject(
  deps: WriteDeps,
  kind: SourceKind,
  namespace: string,
  name: string,
  patch: Record<string, unknown>,
  rv: string | undefined,
): Promise<KubeObject> {
  const { status, ...main } = patch;
  let written: KubeObject | undefined;
  let at = rv;
  if (Object.keys(main).length > 0 || status === undefined) {
    written = await deps.writer.mergePatch(kind, namespace, name, { ...main, metadata: { ...(main.metadata as object), resourceVersion: at } });
    at = written.metadata?.resourceVersion;
  }
  if (status !== undefined) {
    written = await deps.writer.mergePatch(kind, namespace, name, { metadata: { resourceVersion: at }, status }, 'status');
  }
  return written!;
}
