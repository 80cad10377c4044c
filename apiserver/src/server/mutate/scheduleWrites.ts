import {
  DATABASE_BACKUP_SCHEDULE_KIND,
  DATABASE_BACKUP_SCHEDULE_PLURAL,
  DATABASES_API_GROUP,
  LABEL_MANAGED_BY,
  LABEL_REQUESTED_BY,
  ANNOTATION_REQUESTED_BY,
  type DatabaseBackupSchedule,
} from '@internal/plugin-databases-common';
import { validateCron } from '../../adapters/shared/cron';
import type { KubeObject, SourceKind } from '../../adapters/types';
import type { BackupStore } from '../../backups/BackupStore';
import { hasSchedules, type AdapterWithSchedules } from '../../backups/backupRunAdapters';
import type { ScheduleSource, ScheduleStore } from '../../backups/ScheduleStore';
import { type FieldCause, immutable, invalid as invalidField } from '../../writes/FieldCause';
import { validateInstanceName } from '../../writes/validateName';
import type { HandlerContext } from '../readHandlers';
import { badRequest, invalid, notFound, unsupportedMediaType } from '../StatusError';
import { applyParsedPatch, APPLY_PATCH_TYPE, PATCH_MEDIA_TYPES, parsePatch } from './applyPatch';
import { targetOf } from './backupWrites';
import { decodeSchedule } from './decodeSchedule';
import { mediaTypeOf, parseObjectBody } from './decodeInstance';
import { createMergePatch } from './mergePatch';
import { rvAtLeast, sendObject } from './respondInstance';
import { createProjected, deleteProjected, requestedName, waitForKind, writeKey, type ProjectedKindWrites } from './projectedWrites';
import { alreadyExists, conflict, preconditionFailed, toWriteError } from './toWriteError';
import { validateMetadata } from './validateMetadata';
import { projectAlone } from './scheduleAlone';
import { createEmbedded, deleteEmbedded, embeddedCreateCauses, updateEmbedded } from './embeddedScheduleWrites';
import { parseDeleteOptions } from './deleteOptions';
import type { WriteDeps } from './WriteDeps';
import { parseWriteOptions, type WriteOptions } from './writeOptions';


/** What the schedule write handlers need: the instance writes', the schedule store and the backup store (names). */
export type ScheduleWriteDeps = WriteDeps & { schedules: ScheduleStore; backups?: BackupStore };

/** Said on every delete: the runs a schedule already took are not deleted with it. */
export const SCHEDULE_RUNS_KEPT =
  'no new runs start; the backups it already took are kept (CloudNativePG Backups it made stay as DatabaseBackups; ' +
  "a mariadb-operator schedule's runs, Jobs of its CronJob, go with it) and no supported operator deletes stored backup data";

/** How a refusal for an engine without backups ends its sentence. */
const CANNOT = 'have a DatabaseBackupSchedule';

const lockKey = (namespace: string, name: string) => writeKey('schedule', namespace, name);

/** How the writes of databasebackupschedules read their store and serve an object alone. */
const scheduleKind = (deps: ScheduleWriteDeps): ProjectedKindWrites<DatabaseBackupSchedule, AdapterWithSchedules> => ({
  store: deps.schedules,
  plural: DATABASE_BACKUP_SCHEDULE_PLURAL,
  prefix: 'schedule',
  alone: projectAlone,
});

const waitForSchedules = (deps: ScheduleWriteDeps, done: () => boolean) => waitForKind(deps, scheduleKind(deps), done);

function kindOf(adapter: AdapterWithSchedules, object: KubeObject): SourceKind {
  const kind = adapter.backups.schedules.kinds.find(k => `${k.group}/${k.version}` === object.apiVersion && k.kind === object.kind);
  if (!kind) throw new Error(`${adapter.id}: toOperatorObject built a ${object.kind} of ${object.apiVersion}, not one of its schedule kinds`);
  return kind;
}

/**
 * The first object already holding `name` in `namespace`, described, or undefined: a schedule,
 * or a backup run of a kind schedules share (a mariadb-operator Backup is either).
 */
function nameHolder(deps: ScheduleWriteDeps, namespace: string, name: string): string | undefined {
  const claim = deps.schedules.claims(namespace, name)[0] ?? deps.backups?.claims(namespace, name)[0];
  if (claim) return `${claim.kind.kind}.${claim.kind.group} "${name}"`;
  return deps.recentCreates.get(writeKey('schedule', namespace, name)) ?? deps.recentCreates.get(writeKey('backup', namespace, name));
}

/** The spec's own rules, the same for every operator: a 5-field cron, suspend a boolean, strings where strings go. */
function specCauses(spec: DatabaseBackupSchedule['spec']): FieldCause[] {
  const causes = validateCron(spec.schedule);
  if (spec.suspend !== undefined && typeof spec.suspend !== 'boolean') causes.push(invalidField('spec.suspend', spec.suspend, 'must be a boolean'));
  for (const key of ['retention', 'method'] as const) {
    if (spec[key] !== undefined && typeof spec[key] !== 'string') causes.push(invalidField(`spec.${key}`, spec[key], 'must be a string'));
  }
  return causes;
}

/** Every cause `spec` cannot run on `adapter`'s operator for `target`, the spec's own rules first. */
function scheduleCauses(spec: DatabaseBackupSchedule['spec'], found: ReturnType<typeof targetOf>): FieldCause[] {
  const causes = specCauses(spec);
  if ('causes' in found) return [...causes, ...found.causes];
  if (!hasSchedules(found.adapter)) {
    const why = found.adapter.backups.scheduleRefusal ?? `${found.adapter.operator} has no schedule objects`;
    return [
      ...causes,
      { reason: 'FieldValueForbidden', field: 'spec.instanceRef.name', message: `Forbidden: ${found.adapter.engine} instances cannot have a DatabaseBackupSchedule: ${why}` },
    ];
  }
  // the operator's own checks read typed values: only once the types are right
  const typed = causes.every(c => c.field === 'spec.schedule');
  return typed ? [...causes, ...found.adapter.backups.schedules.validate(spec, found.target)] : causes;
}

const dedupe = (causes: FieldCause[]) => [...new Map(causes.map(c => [`${c.field}\u0000${c.message}`, c])).values()];

/**
 * POST .../namespaces/{ns}/databasebackupschedules: decoded as a custom resource would be (400),
 * every bad field in one 422 (a cron that is not 5 fields, an engine without schedules or whose
 * schedules are not served, retention or a method the operator cannot honour), the name free
 * among the schedule and backup objects (409), then — unless dryRun — the operator's schedule
 * object is created with the apiserver's credentials. 201 with the DatabaseBackupSchedule.
 */
export async function createSchedule(ctx: HandlerContext, deps: ScheduleWriteDeps): Promise<void> {
  const options = parseWriteOptions(ctx.query, 'CreateOptions');
  const raw = parseObjectBody(ctx.body, ctx.req.headers['content-type']);
  const { schedule: decoded, warnings } = decodeSchedule(raw, options.fieldValidation);
  const namespace = ctx.info.namespace;
  const meta = decoded.metadata;
  const name = requestedName(meta, namespace, n => nameHolder(deps, namespace, n));
  const request: DatabaseBackupSchedule = {
    ...decoded,
    metadata: {
      name,
      namespace,
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
    },
  };
  const found = targetOf(deps, namespace, request.spec, CANNOT);
  // mariadb-operator names the CronJob after the Backup, CloudNativePG its Backups
  // `<name>-<14 digits>`: a DNS-1123 label leaves them room
  const embedded = 'adapter' in found && hasSchedules(found.adapter) ? found.adapter.backups.schedules.embedded : undefined;
  const causes = dedupe([
    ...validateMetadata(request.metadata),
    ...validateInstanceName(name, 48, 'the operator'),
    ...(embedded && 'target' in found ? embeddedCreateCauses(request, found.target, embedded, warnings) : []),
    ...scheduleCauses(request.spec, found),
  ]);
  if (causes.length || !('adapter' in found) || !hasSchedules(found.adapter)) throw invalid(DATABASE_BACKUP_SCHEDULE_KIND, DATABASES_API_GROUP, name, causes);
  const adapter = found.adapter;

  const holder = nameHolder(deps, namespace, name);
  if (holder) throw alreadyExists(name, holder);

  if (adapter.backups.schedules.embedded) {
    await createEmbedded(ctx, deps, { adapter, target: found.target, request, dryRun: options.dryRun, warnings, holder: n => nameHolder(deps, namespace, n) });
    return;
  }
  const user = ctx.user ?? { username: '', groups: [] };
  const built = adapter.backups.schedules.toOperatorObject(request, found.target, { requestedBy: user.username || undefined });
  const kind = kindOf(adapter, built);

  await createProjected(ctx, deps, scheduleKind(deps), {
    adapter,
    type: kind,
    object: built,
    name,
    dryRun: options.dryRun,
    warnings,
    holder: n => nameHolder(deps, namespace, n),
  });
}

/** Labels and annotations the apiserver stamps itself: kept as they are, whatever a client sends. */
const STAMPED_LABELS = [LABEL_MANAGED_BY, LABEL_REQUESTED_BY];
const STAMPED_ANNOTATIONS = [ANNOTATION_REQUESTED_BY];

function withMetadata(object: KubeObject, current: KubeObject, desired: DatabaseBackupSchedule['metadata']): KubeObject {
  const keep = (now: Record<string, string> | undefined, wanted: Record<string, string> | undefined, stamped: string[]) => {
    const out: Record<string, string> = { ...wanted };
    for (const key of stamped) {
      delete out[key];
      if (now?.[key] !== undefined) out[key] = now[key];
    }
    return out;
  };
  const labels = keep(current.metadata?.labels, desired.labels, STAMPED_LABELS);
  const annotations = keep(current.metadata?.annotations, desired.annotations, STAMPED_ANNOTATIONS);
  return { ...object, metadata: { ...object.metadata, labels, annotations } };
}

/** Turns the schedule as served now into the object the client wants (a PUT body, a patched JSON). */
type Desired = (current: DatabaseBackupSchedule) => unknown;

/** Bound on re-runs after kube-apiserver reported a conflict the client could not have seen. */
const MAX_TRIES = 5;

/**
 * The update path of PUT and PATCH: immutable name, namespace, uid and instance; optimistic
 * concurrency on `metadata.resourceVersion` where the client set one (409 when the schedule
 * changed since); every bad field in one 422; then a merge patch of the operator object
 * conditioned on its resourceVersion (re-run on a conflict the client did not pin).
 */
async function runScheduleUpdate(ctx: HandlerContext, deps: ScheduleWriteDeps, options: WriteOptions, desiredOf: Desired, pinned: boolean): Promise<void> {
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  await deps.locks.run(lockKey(namespace, name), async () => {
    for (let tries = 1; ; tries++) {
      const current = deps.schedules.get(namespace, name);
      const source: ScheduleSource | undefined = deps.schedules.source(namespace, name);
      if (!current || !source) throw notFound(DATABASE_BACKUP_SCHEDULE_PLURAL, name);
      const { schedule: desired, warnings } = decodeSchedule(desiredOf(current), options.fieldValidation);
      const meta = desired.metadata;
      if (meta.name && meta.name !== name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
      if (meta.namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      const uid = current.metadata.uid ?? '';
      if (meta.uid && meta.uid !== uid) throw preconditionFailed(name, 'UID', meta.uid, uid);
      const rv = pinned ? meta.resourceVersion : undefined;
      if (rv) {
        if (!/^\d+$/.test(rv)) {
          throw invalid(DATABASE_BACKUP_SCHEDULE_KIND, DATABASES_API_GROUP, name, [invalidField('metadata.resourceVersion', rv, 'must be a resourceVersion this server returned')]);
        }
        if (rv !== current.metadata.resourceVersion) throw conflict(name);
      }
      const wantedInstance = (desired.spec.instanceRef as { name?: unknown } | undefined)?.name;
      const sameInstance = wantedInstance === current.spec.instanceRef.name;
      const found = targetOf(deps, namespace, current.spec, CANNOT);
      const causes = dedupe([
        ...validateMetadata(meta),
        ...(sameInstance ? [] : [immutable('spec.instanceRef.name', wantedInstance)]),
        ...scheduleCauses(desired.spec, found),
      ]);
      if (causes.length) throw invalid(DATABASE_BACKUP_SCHEDULE_KIND, DATABASES_API_GROUP, name, causes);
      const side = source.adapter.backups.schedules;
      if (side.embedded) {
        await updateEmbedded(ctx, deps, { source, current, desired, pinnedRv: rv, dryRun: options.dryRun, warnings });
        return;
      }
      const object = withMetadata(side.applyUpdate(source.object, desired.spec), source.object, meta);
      const patch = createMergePatch(source.object, object);
      if (Object.keys(patch).length === 0) {
        // no-op: no write, no new resourceVersion, no watch event
        sendObject(ctx.res, ctx.req.headers.accept, 200, current, warnings);
        return;
      }
      if (options.dryRun) {
        // the new spec as the operator object will read back, with the status served now
        const preview = projectAlone(source.adapter, source.kind, object);
        sendObject(ctx.res, ctx.req.headers.accept, 200, { ...current, metadata: { ...current.metadata, labels: preview.metadata.labels, annotations: preview.metadata.annotations }, spec: preview.spec }, warnings);
        return;
      }
      const sourceRv = source.object.metadata?.resourceVersion;
      let updated: KubeObject;
      try {
        const { status: _status, ...main } = patch;
        updated = await deps.writer.mergePatch(source.kind, namespace, source.object.metadata?.name ?? name, {
          ...main,
          metadata: { ...(main.metadata as object), resourceVersion: sourceRv },
        });
      } catch (err) {
        const status = toWriteError(err, { verb: 'patch', name, namespace, type: source.kind });
        if (status.code === 409 && !rv && tries < MAX_TRIES) {
          // the operator wrote its status since our cache saw the object: re-run on the newer one
          await waitForSchedules(deps, () => deps.schedules.source(namespace, name)?.object.metadata?.resourceVersion !== sourceRv);
          continue;
        }
        throw status.code === 409 ? conflict(name) : status;
      }
      const updatedRv = updated.metadata?.resourceVersion;
      const seen = await waitForSchedules(deps, () => rvAtLeast(deps.schedules.builtFromRv(namespace, name), updatedRv));
      const answer = (seen && deps.schedules.get(namespace, name)) || projectAlone(source.adapter, source.kind, updated);
      sendObject(ctx.res, ctx.req.headers.accept, 200, answer, warnings);
      return;
    }
  });
}

/** PUT .../databasebackupschedules/{name}. */
export async function updateSchedule(ctx: HandlerContext, deps: ScheduleWriteDeps): Promise<void> {
  const options = parseWriteOptions(ctx.query, 'UpdateOptions');
  const body = parseObjectBody(ctx.body, ctx.req.headers['content-type']);
  await runScheduleUpdate(ctx, deps, options, () => body, true);
}

/**
 * PATCH .../databasebackupschedules/{name} with a JSON merge patch or a JSON patch (server-side
 * apply is not served here: 415 with the types that are). A patch that does not set
 * `metadata.resourceVersion` applies to whatever is current.
 */
export async function patchSchedule(ctx: HandlerContext, deps: ScheduleWriteDeps): Promise<void> {
  if (mediaTypeOf(ctx.req.headers['content-type']) === APPLY_PATCH_TYPE) {
    throw unsupportedMediaType(PATCH_MEDIA_TYPES.filter(t => t !== APPLY_PATCH_TYPE));
  }
  const parsed = parsePatch(ctx.body, ctx.req.headers['content-type']);
  const options = parseWriteOptions(ctx.query, 'PatchOptions');
  await runScheduleUpdate(ctx, deps, options, current => applyParsedPatch(JSON.parse(JSON.stringify(current)), parsed), pinsResourceVersion(parsed));
}

/** Whether a patch itself sets `metadata.resourceVersion` (a precondition, as in kube). */
function pinsResourceVersion(parsed: ReturnType<typeof parsePatch>): boolean {
  if (parsed.type === 'application/merge-patch+json') {
    const rv = (parsed.patch as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
    return rv !== undefined && rv !== null;
  }
  return parsed.patch.some(op => op?.path === '/metadata/resourceVersion' && (op.op === 'add' || op.op === 'replace' || op.op === 'test'));
}

/**
 * DELETE .../databasebackupschedules/{name}: deletes the operator's schedule object (and, by
 * background propagation, what it owns: mariadb-operator's CronJob and its Jobs), with
 * preconditions and dryRun. Every answer says in a Warning that the backups taken are kept.
 */
export async function deleteSchedule(ctx: HandlerContext, deps: ScheduleWriteDeps): Promise<void> {
  const warning = `${DATABASE_BACKUP_SCHEDULE_KIND} "${ctx.pathName}": ${SCHEDULE_RUNS_KEPT}`;
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  if (!deps.schedules.source(namespace, name)?.adapter.backups.schedules.embedded) {
    await deleteProjected(ctx, deps, scheduleKind(deps), warning);
    return;
  }
  // an entry of the instance's object: removed from its list, with the same preconditions
  const options = parseDeleteOptions(ctx.body, ctx.query);
  const uid = await deps.locks.run(lockKey(namespace, name), async () => {
    const current = deps.schedules.get(namespace, name);
    const source = deps.schedules.source(namespace, name);
    if (!current || !source) throw notFound(DATABASE_BACKUP_SCHEDULE_PLURAL, name);
    const currentUid = current.metadata.uid ?? '';
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== currentUid) throw preconditionFailed(name, 'UID', pre.uid, currentUid);
    if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
      throw preconditionFailed(name, 'ResourceVersion', pre.resourceVersion, current.metadata.resourceVersion ?? '');
    }
    if (!options.dryRun) await deleteEmbedded(deps, { namespace, name, source });
    return currentUid;
  });
  const gone = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, group: DATABASES_API_GROUP, kind: DATABASE_BACKUP_SCHEDULE_PLURAL, ...(uid ? { uid } : {}) },
  };
  sendObject(ctx.res, ctx.req.headers.accept, 200, gone, [warning]);
}
