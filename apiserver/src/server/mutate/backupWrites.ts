import { randomUUID } from 'node:crypto';
import {
  DATABASE_BACKUP_KIND,
  DATABASE_BACKUP_PLURAL,
  DATABASES_API_GROUP,
  type DatabaseBackup,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../../adapters/types';
import type { BackupSource, BackupStore } from '../../backups/BackupStore';
import { hasBackups, type AdapterWithBackups } from '../../backups/backupRunAdapters';
import { type FieldCause, invalid as invalidField, required } from '../../writes/FieldCause';
import { validateInstanceName } from '../../writes/validateName';
import type { HandlerContext } from '../readHandlers';
import { invalid, notFound, StatusError } from '../StatusError';
import { randomSuffix } from './createInstance';
import { decodeBackup } from './decodeBackup';
import { parseObjectBody } from './decodeInstance';
import { parseDeleteOptions } from './deleteOptions';
import { rvAtLeast, sendObject } from './respondInstance';
import { alreadyExists, preconditionFailed, toWriteError } from './toWriteError';
import { validateMetadata } from './validateMetadata';
import type { WriteDeps } from './WriteDeps';
import { parseWriteOptions } from './writeOptions';
import { waitForStore } from '../waitForStore';

/** What the backup write handlers need: the instance writes' and the backup store. */
export type BackupWriteDeps = WriteDeps & { backups: BackupStore };

/** Said on every delete: a DatabaseBackup is the operator's object, not the data it wrote. */
export const STORED_DATA_KEPT =
  'the backup data itself is not deleted: no supported operator deletes stored backups with their backup object; remove them from their storage';

const waitForBackups = (deps: BackupWriteDeps, done: () => boolean) =>
  waitForStore(listener => deps.backups.onApplied(listener), done, deps.cacheWaitMs);

/** The backup object `object` projects to by itself (before the watch cache has it). */
function projectAlone(adapter: AdapterWithBackups, kind: SourceKind, object: KubeObject): DatabaseBackup {
  const projected = adapter.backups.project(object, kind, { get: () => undefined });
  const rv = object.metadata?.resourceVersion;
  return { ...projected, metadata: { ...projected.metadata, ...(rv ? { resourceVersion: rv } : {}) } };
}

/** The kind of the backup side an operator object built by `toOperatorObject` is of. */
function kindOf(adapter: AdapterWithBackups, object: KubeObject): SourceKind {
  const kind = adapter.backups.kinds.find(k => `${k.group}/${k.version}` === object.apiVersion && k.kind === object.kind);
  if (!kind) throw new Error(`${adapter.id}: toOperatorObject built a ${object.kind} of ${object.apiVersion}, not one of its backup kinds`);
  return kind;
}

/**
 * The instance a backup or schedule names, and the adapter that backs it up, or every cause it
 * cannot be (shared with the schedule writes).
 */
export function targetOf(
  deps: Pick<WriteDeps, 'store'>,
  namespace: string,
  spec: Pick<DatabaseBackup['spec'], 'instanceRef'>,
  cannot = 'be backed up through this API',
): { causes: FieldCause[] } | { adapter: AdapterWithBackups; target: KubeObject } {
  const field = 'spec.instanceRef.name';
  const ref = spec.instanceRef as unknown;
  if (ref === undefined || ref === null) return { causes: [required('spec.instanceRef', 'the instance to back up')] };
  const name = (ref as { name?: unknown }).name;
  if (typeof ref !== 'object' || name === undefined || name === '') return { causes: [required(field, 'the instance to back up')] };
  if (typeof name !== 'string') return { causes: [invalidField(field, name, 'must be a string')] };
  const source = deps.store.source(namespace, name);
  if (!source) {
    return { causes: [{ reason: 'FieldValueNotFound', field, message: `Not found: ${JSON.stringify(name)}: no DatabaseInstance of that name in namespace ${JSON.stringify(namespace)}` }] };
  }
  if (!hasBackups(source.adapter)) {
    return {
      causes: [
        {
          reason: 'FieldValueForbidden',
          field,
          message: `Forbidden: ${source.adapter.engine} instances cannot ${cannot}: ${source.adapter.operator} has no backup objects (DatabaseEngine ${source.adapter.engine} spec.backup says what each engine can do)`,
        },
      ],
    };
  }
  return { adapter: source.adapter, target: source.object };
}

/** The first backup object already holding `name` in `namespace`, described, or undefined. */
function nameHolder(deps: BackupWriteDeps, namespace: string, name: string): string | undefined {
  const claim = deps.backups.claims(namespace, name)[0];
  if (claim) return `${claim.kind.kind}.${claim.kind.group} "${name}"`;
  return deps.recentCreates.get(`backup:${namespace}/${name}`);
}

/**
 * POST .../namespaces/{ns}/databasebackups: back up an instance now. Decoded and validated as a
 * custom resource would be (400 for what does not decode, 422 naming every bad field: the
 * instance missing, an engine without backups, a method the operator or the instance is not
 * configured for), the name free among every operator's backup objects (409), then — unless
 * dryRun — the operator's backup object is created with the apiserver's credentials. 201 with
 * the DatabaseBackup.
 */
export async function createBackup(ctx: HandlerContext, deps: BackupWriteDeps): Promise<void> {
  const options = parseWriteOptions(ctx.query, 'CreateOptions');
  const raw = parseObjectBody(ctx.body, ctx.req.headers['content-type']);
  const { backup: decoded, warnings } = decodeBackup(raw, options.fieldValidation);
  const namespace = ctx.info.namespace;
  const meta = decoded.metadata;
  if (meta.namespace && meta.namespace !== namespace) {
    throw new StatusError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  }
  let name = typeof meta.name === 'string' ? meta.name : '';
  if (!name && typeof meta.generateName === 'string' && meta.generateName) {
    for (let i = 0; i < 5 && (!name || nameHolder(deps, namespace, name)); i++) name = `${meta.generateName}${randomSuffix()}`;
  }
  const request: DatabaseBackup = {
    ...decoded,
    metadata: {
      name,
      namespace,
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
    },
  };
  const found = targetOf(deps, namespace, request.spec);
  // the operator names its Job after the backup object: a DNS-1123 label
  const causes = [...validateMetadata(request.metadata), ...validateInstanceName(name, 63, 'the operator'), ...('causes' in found ? found.causes : [])];
  if ('adapter' in found) causes.push(...found.adapter.backups.validate(request.spec, found.target));
  const unique = new Map(causes.map(c => [`${c.field}\u0000${c.message}`, c]));
  if (unique.size || !('adapter' in found)) throw invalid(DATABASE_BACKUP_KIND, DATABASES_API_GROUP, name, [...unique.values()]);
  const { adapter, target } = found;

  const holder = nameHolder(deps, namespace, name);
  if (holder) throw alreadyExists(name, holder);

  const user = ctx.user ?? { username: '', groups: [] };
  const built = adapter.backups.toOperatorObject(request, target, { requestedBy: user.username || undefined });
  const object: KubeObject = {
    ...built,
    metadata: {
      ...built.metadata,
      labels: { ...request.metadata.labels, ...built.metadata?.labels },
      annotations: { ...request.metadata.annotations, ...built.metadata?.annotations },
    },
  };
  const kind = kindOf(adapter, object);

  if (options.dryRun) {
    const wouldBe = { ...object, metadata: { ...object.metadata, uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), generation: 1 } };
    const answer = projectAlone(adapter, kind, wouldBe);
    delete answer.metadata.resourceVersion;
    sendObject(ctx.res, ctx.req.headers.accept, 201, answer, warnings);
    return;
  }

  const key = `backup:${namespace}/${name}`;
  const created = await deps.locks.run(key, async () => {
    const taken = nameHolder(deps, namespace, name);
    if (taken) throw alreadyExists(name, taken);
    let made: KubeObject;
    try {
      made = await deps.writer.create(kind, object);
    } catch (err) {
      throw toWriteError(err, { verb: 'create', name, namespace, type: kind });
    }
    deps.recentCreates.set(key, `${kind.kind}.${kind.group} "${name}"`);
    return made;
  });
  const rv = created.metadata?.resourceVersion;
  const seen = await waitForBackups(deps, () => {
    const served = deps.backups.get(namespace, name);
    return served?.metadata.uid === created.metadata?.uid && rvAtLeast(served?.metadata.resourceVersion, rv);
  });
  if (seen) deps.recentCreates.delete(key);
  else setTimeout(() => deps.recentCreates.delete(key), 60_000).unref?.();
  const answer = (seen && deps.backups.get(namespace, name)) || projectAlone(adapter, kind, created);
  sendObject(ctx.res, ctx.req.headers.accept, 201, answer, warnings);
}

/** `Status{Success}` for a backup object that is gone at once. */
const deletedStatus = (name: string, uid: string | undefined) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  details: { name, group: DATABASES_API_GROUP, kind: DATABASE_BACKUP_PLURAL, ...(uid ? { uid } : {}) },
});

/**
 * DELETE .../databasebackups/{name}: deletes the operator's backup object (and, by background
 * propagation, the Jobs it owns), with preconditions and dryRun. The stored backup is not
 * deleted by any supported operator: every answer says so in a Warning, which kubectl prints.
 */
export async function deleteBackup(ctx: HandlerContext, deps: BackupWriteDeps): Promise<void> {
  const options = parseDeleteOptions(ctx.body, ctx.query);
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  const warnings = [`${DATABASE_BACKUP_KIND} "${name}": ${STORED_DATA_KEPT}`];
  const result = await deps.locks.run(`backup:${namespace}/${name}`, async () => {
    const current = deps.backups.get(namespace, name);
    const source: BackupSource | undefined = deps.backups.source(namespace, name);
    if (!current || !source) throw notFound(DATABASE_BACKUP_PLURAL, name);
    const uid = current.metadata.uid ?? '';
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== uid) throw preconditionFailed(name, 'UID', pre.uid, uid);
    const sourceRv = source.object.metadata?.resourceVersion;
    if (pre?.resourceVersion && !rvAtLeast(pre.resourceVersion, sourceRv)) {
      throw preconditionFailed(name, 'ResourceVersion', pre.resourceVersion, current.metadata.resourceVersion ?? '');
    }
    if (options.dryRun) return { backup: current, uid };
    let returned: KubeObject | undefined;
    try {
      returned = await deps.writer.delete(source.kind, namespace, source.object.metadata?.name ?? name, {
        propagationPolicy: options.propagationPolicy ?? 'Background',
        preconditions: { uid: source.object.metadata?.uid, ...(pre?.resourceVersion ? { resourceVersion: sourceRv } : {}) },
      });
    } catch (err) {
      throw toWriteError(err, { verb: 'delete', name, namespace, type: source.kind });
    }
    if (returned?.metadata?.deletionTimestamp) {
      // finalizers still run: answer the object as it is now
      const deleting = returned.metadata.resourceVersion;
      const seen = await waitForBackups(deps, () => rvAtLeast(deps.backups.builtFromRv(namespace, name), deleting));
      return { backup: (seen && deps.backups.get(namespace, name)) || projectAlone(source.adapter, source.kind, returned), uid };
    }
    await waitForBackups(deps, () => deps.backups.get(namespace, name)?.metadata.uid !== uid);
    return { backup: undefined, uid };
  });
  sendObject(ctx.res, ctx.req.headers.accept, 200, result.backup ?? deletedStatus(name, result.uid), warnings);
}
