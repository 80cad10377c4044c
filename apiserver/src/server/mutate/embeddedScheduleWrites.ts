import {
  ANNOTATION_KUBECTL_LAST_APPLIED,
  DATABASE_BACKUP_SCHEDULE_KIND,
  DATABASE_BACKUP_SCHEDULE_PLURAL,
  DATABASES_API_GROUP,
  type DatabaseBackupSchedule,
} from '@internal/plugin-databases-common';
import type { EmbeddedSchedules, KubeObject } from '../../adapters/types';
import type { AdapterWithSchedules } from '../../backups/backupRunAdapters';
import { forbidden, type FieldCause } from '../../writes/FieldCause';
import type { HandlerContext } from '../readHandlers';
import { invalid, notFound } from '../StatusError';
import { waitForStore } from '../waitForStore';
import { rvAtLeast, sendObject } from './respondInstance';
import { projectAlone } from './scheduleAlone';
import { alreadyExists, conflict, toWriteError } from './toWriteError';
import type { WriteDeps } from './WriteDeps';
import type { ScheduleSource, ScheduleStore } from '../../backups/ScheduleStore';

/**
 * Bound on re-runs after the instance's object changed under a write (the operator's status).
 * Writes hold the instance's own lock (`namespace/name`, as its updates do): one change of its
 * object at a time from this replica; other replicas are kept apart by the resourceVersion.
 */
const MAX_TRIES = 5;

type Deps = WriteDeps & { schedules: ScheduleStore };

/**
 * The bad fields of a schedule's metadata where entries carry none: labels and annotations are
 * refused (they would be lost), kubectl's last-applied copy is dropped with a warning.
 */
export function embeddedMetadataCauses(meta: DatabaseBackupSchedule['metadata'], embedded: EmbeddedSchedules, warnings: string[]): FieldCause[] {
  const causes: FieldCause[] = [];
  if (meta.labels && Object.keys(meta.labels).length) causes.push(forbidden('metadata.labels', embedded.noMetadata));
  const annotations = Object.keys(meta.annotations ?? {}).filter(k => k !== ANNOTATION_KUBECTL_LAST_APPLIED);
  if (annotations.length) causes.push(forbidden('metadata.annotations', embedded.noMetadata));
  else if (meta.annotations?.[ANNOTATION_KUBECTL_LAST_APPLIED] !== undefined)
    warnings.push(`metadata.annotations[${ANNOTATION_KUBECTL_LAST_APPLIED}] is not kept: ${embedded.noMetadata}`);
  return causes;
}

/**
 * Writes the instance `instance`'s spec with `specPatch(current object)` as a merge patch
 * conditioned on the resourceVersion read (kube answers 409 when it moved): re-run on the newer
 * object when the operator wrote meanwhile, unless `pinned` (the client's own precondition).
 */
async function patchInstance(deps: Deps, namespace: string, instance: string, name: string, specPatch: (current: KubeObject) => Record<string, unknown>): Promise<KubeObject> {
  for (let tries = 1; ; tries++) {
    const source = deps.store.source(namespace, instance);
    if (!source) throw notFound(DATABASE_BACKUP_SCHEDULE_PLURAL, name);
    const rv = source.object.metadata?.resourceVersion;
    // outside the try: a refusal of the patch's own (409 taken, 404 gone) is the answer as it is
    const spec = specPatch(source.object);
    try {
      return await deps.writer.mergePatch(source.kind, namespace, instance, { metadata: { resourceVersion: rv }, spec });
    } catch (err) {
      const status = toWriteError(err, { verb: 'patch', name: instance, namespace, type: source.kind });
      if (status.code !== 409) throw status;
      if (tries >= MAX_TRIES) throw conflict(name);
      await waitForStore(l => deps.store.onApplied(l), () => deps.store.source(namespace, instance)?.object.metadata?.resourceVersion !== rv, deps.cacheWaitMs);
    }
  }
}

/** The entry object named `name` that the instance's object `current` holds now; 404 when it holds none. */
function entryIn(expand: ((parent: KubeObject) => KubeObject[]) | undefined, current: KubeObject, name: string): KubeObject {
  const found = expand?.(current).find(o => o.metadata?.name === name);
  if (!found) throw notFound(DATABASE_BACKUP_SCHEDULE_PLURAL, name);
  return found;
}

/** Waits until the schedule store has built `name` from at least `rv` (or it is gone, with `gone`). */
const seenAt = (deps: Deps, namespace: string, name: string, rv: string | undefined, gone = false) =>
  waitForStore(
    l => deps.schedules.onApplied(l),
    () => (gone ? deps.schedules.get(namespace, name) === undefined : rvAtLeast(deps.schedules.builtFromRv(namespace, name), rv)),
    deps.cacheWaitMs,
  );

/** The schedule `object` (an entry object) serves by itself, at `rv`. */
const alone = (adapter: AdapterWithSchedules, object: KubeObject, rv?: string): DatabaseBackupSchedule =>
  projectAlone(adapter, adapter.backups.schedules.kinds[0], rv ? { ...object, metadata: { ...object.metadata, resourceVersion: rv } } : object);

/** Every bad field of a create of a schedule kept inside `target` (its name, its metadata). */
export function embeddedCreateCauses(request: DatabaseBackupSchedule, target: KubeObject, embedded: EmbeddedSchedules, warnings: string[]): FieldCause[] {
  const found = embedded.entryName(request.metadata.name ?? '', target);
  return [...('cause' in found ? [found.cause] : []), ...embeddedMetadataCauses(request.metadata, embedded, warnings)];
}

/** POST of a schedule kept inside the instance's object, checked by embeddedCreateCauses with the rest of the request: the entry added to its list. 201. */
export async function createEmbedded(
  ctx: HandlerContext,
  deps: Deps,
  w: { adapter: AdapterWithSchedules; target: KubeObject; request: DatabaseBackupSchedule; dryRun: boolean; warnings: string[]; holder(name: string): string | undefined },
): Promise<void> {
  const side = w.adapter.backups.schedules;
  const embedded = side.embedded!;
  const name = w.request.metadata.name ?? '';
  const namespace = ctx.info.namespace;
  const object = side.toOperatorObject(w.request, w.target);
  if (w.dryRun) {
    sendObject(ctx.res, ctx.req.headers.accept, 201, alone(w.adapter, object), w.warnings);
    return;
  }
  const instance = embedded.instanceOf(object);
  const updated = await deps.locks.run(`${namespace}/${instance}`, () =>
    patchInstance(deps, namespace, instance, name, current => {
      const taken = w.holder(name);
      if (taken) throw alreadyExists(name, taken);
      return embedded.specPatch(current, name, object);
    }),
  );
  const rv = updated.metadata?.resourceVersion;
  const seen = await seenAt(deps, namespace, name, rv);
  sendObject(ctx.res, ctx.req.headers.accept, 201, (seen && deps.schedules.get(namespace, name)) || alone(w.adapter, object, rv), w.warnings);
}

/**
 * The update of a schedule kept inside the instance's object (after the checks every schedule
 * update makes): its entry replaced. Answers 200 with the schedule as served after it.
 */
export async function updateEmbedded(
  ctx: HandlerContext,
  deps: Deps,
  w: { source: ScheduleSource; current: DatabaseBackupSchedule; desired: DatabaseBackupSchedule; pinnedRv?: string; dryRun: boolean; warnings: string[] },
): Promise<void> {
  const side = w.source.adapter.backups.schedules;
  const embedded = side.embedded!;
  const namespace = ctx.info.namespace;
  const name = w.current.metadata.name ?? '';
  const causes = embeddedMetadataCauses(w.desired.metadata, embedded, w.warnings);
  if (causes.length) throw invalid(DATABASE_BACKUP_SCHEDULE_KIND, DATABASES_API_GROUP, name, causes);
  const object = side.applyUpdate(w.source.object, w.desired.spec);
  const preview = alone(w.source.adapter, object);
  if (JSON.stringify(preview.spec) === JSON.stringify(alone(w.source.adapter, w.source.object).spec) || w.dryRun) {
    // no change (no write, no event), or a dry run: the spec it would have, the status as served
    sendObject(ctx.res, ctx.req.headers.accept, 200, { ...w.current, spec: preview.spec }, w.warnings);
    return;
  }
  const instance = embedded.instanceOf(w.source.object);
  const updated = await deps.locks.run(`${namespace}/${instance}`, () =>
    patchInstance(deps, namespace, instance, name, current => {
      // the client's precondition is on the schedule as served: a newer entry is a conflict
      if (w.pinnedRv && deps.schedules.get(namespace, name)?.metadata.resourceVersion !== w.pinnedRv) throw conflict(name);
      // the entry as the cluster has it now (what changed beside the API's fields is kept); gone: 404
      const now = entryIn(side.kinds[0].expand, current, name);
      return embedded.specPatch(current, name, side.applyUpdate(now, w.desired.spec));
    }),
  );
  const rv = updated.metadata?.resourceVersion;
  const seen = await seenAt(deps, namespace, name, rv);
  sendObject(ctx.res, ctx.req.headers.accept, 200, (seen && deps.schedules.get(namespace, name)) || alone(w.source.adapter, object, rv), w.warnings);
}

/** DELETE of a schedule kept inside the instance's object: its entry removed from the list. */
export async function deleteEmbedded(
  deps: Deps,
  w: { namespace: string; name: string; source: ScheduleSource },
): Promise<void> {
  const side = w.source.adapter.backups.schedules;
  const embedded = side.embedded!;
  const instance = embedded.instanceOf(w.source.object);
  await deps.locks.run(`${w.namespace}/${instance}`, () =>
    patchInstance(deps, w.namespace, instance, w.name, current => {
      entryIn(side.kinds[0].expand, current, w.name); // gone meanwhile: 404, no write
      return embedded.specPatch(current, w.name, undefined);
    }),
  );
  await seenAt(deps, w.namespace, w.name, undefined, true);
}
