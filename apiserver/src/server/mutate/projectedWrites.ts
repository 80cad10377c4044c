import { randomUUID } from 'node:crypto';
import { DATABASES_API_GROUP, type ObjectMeta } from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../../adapters/types';
import type { HandlerContext } from '../readHandlers';
import { badRequest, notFound } from '../StatusError';
import { waitForStore } from '../waitForStore';
import { randomSuffix } from './createInstance';
import { parseDeleteOptions } from './deleteOptions';
import { rvAtLeast, sendObject } from './respondInstance';
import { alreadyExists, preconditionFailed, toWriteError } from './toWriteError';
import type { WriteDeps } from './WriteDeps';

/** A served object of a projected kind (a backup run, a schedule): its metadata is all we read. */
type Served = { metadata: ObjectMeta };

/**
 * What the writes of a kind projected through a ProjectedStore (DatabaseBackup,
 * DatabaseBackupSchedule) need of it: its store, names, and how an operator object is served by
 * itself before the watch cache has it.
 */
export interface ProjectedKindWrites<T extends Served, A> {
  store: {
    get(namespace: string, name: string): T | undefined;
    source(namespace: string, name: string): { object: KubeObject; kind: SourceKind; adapter: A } | undefined;
    builtFromRv(namespace: string, name: string): string | undefined;
    onApplied(listener: () => void): () => void;
  };
  /** Resource plural, for 404s and Status details. */
  plural: string;
  /** Prefix of its lock and recent-create keys (`backup`, `schedule`). */
  prefix: string;
  /** The object `object` projects to by itself (no related objects; its resourceVersion kept). */
  alone(adapter: A, kind: SourceKind, object: KubeObject): T;
}

/** The per-object lock and recent-create key of a projected kind. */
export const writeKey = (prefix: string, namespace: string, name: string) => `${prefix}:${namespace}/${name}`;

/** Waits (at most cacheWaitMs) until `done` holds in the kind's store. */
export const waitForKind = <T extends Served, A>(deps: WriteDeps, kind: ProjectedKindWrites<T, A>, done: () => boolean) =>
  waitForStore(listener => kind.store.onApplied(listener), done, deps.cacheWaitMs);

/**
 * The name a create asks for: `metadata.name`, else `generateName` with kube-apiserver's suffix
 * (tried until `taken` says no, five times); a namespace in the body must be the URL's (400).
 */
export function requestedName(meta: ObjectMeta, namespace: string, taken: (name: string) => unknown): string {
  if (meta.namespace && meta.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  let name = typeof meta.name === 'string' ? meta.name : '';
  if (!name && typeof meta.generateName === 'string' && meta.generateName) {
    for (let i = 0; i < 5 && (!name || taken(name)); i++) name = `${meta.generateName}${randomSuffix()}`;
  }
  return name;
}

/**
 * The create of a valid, checked operator object: a dry run answers what it would serve; else
 * it is created with the apiserver's credentials under the name's lock (the name checked again
 * there), and the answer is the served object once the watch cache shows it (read-your-writes),
 * the object's own projection when it does not in time. 201 either way.
 */
export async function createProjected<T extends Served, A>(
  ctx: HandlerContext,
  deps: WriteDeps,
  kind: ProjectedKindWrites<T, A>,
  write: { adapter: A; type: SourceKind; object: KubeObject; name: string; dryRun: boolean; warnings: string[]; holder(name: string): string | undefined },
): Promise<void> {
  const { adapter, type, object, name, warnings } = write;
  const namespace = ctx.info.namespace;
  if (write.dryRun) {
    const wouldBe = { ...object, metadata: { ...object.metadata, uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), generation: 1 } };
    const answer = kind.alone(adapter, type, wouldBe);
    delete answer.metadata.resourceVersion;
    sendObject(ctx.res, ctx.req.headers.accept, 201, answer, warnings);
    return;
  }
  const key = writeKey(kind.prefix, namespace, name);
  const created = await deps.locks.run(key, async () => {
    const taken = write.holder(name);
    if (taken) throw alreadyExists(name, taken);
    let made: KubeObject;
    try {
      made = await deps.writer.create(type, object);
    } catch (err) {
      throw toWriteError(err, { verb: 'create', name, namespace, type });
    }
    deps.recentCreates.set(key, `${type.kind}.${type.group} "${name}"`);
    return made;
  });
  const rv = created.metadata?.resourceVersion;
  const seen = await waitForKind(deps, kind, () => {
    const served = kind.store.get(namespace, name);
    return served?.metadata.uid === created.metadata?.uid && rvAtLeast(served?.metadata.resourceVersion, rv);
  });
  if (seen) deps.recentCreates.delete(key);
  else setTimeout(() => deps.recentCreates.delete(key), 60_000).unref?.();
  const answer = (seen && kind.store.get(namespace, name)) || kind.alone(adapter, type, created);
  sendObject(ctx.res, ctx.req.headers.accept, 201, answer, warnings);
}

/**
 * DELETE of a projected kind's object: deletes the operator object (its dependents by background
 * propagation unless the client chose), with uid and resourceVersion preconditions and dryRun.
 * Answers the object while finalizers run, else `Status{Success}`; every answer carries `warning`.
 */
export async function deleteProjected<T extends Served, A>(ctx: HandlerContext, deps: WriteDeps, kind: ProjectedKindWrites<T, A>, warning: string): Promise<void> {
  const options = parseDeleteOptions(ctx.body, ctx.query);
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  const result = await deps.locks.run(writeKey(kind.prefix, namespace, name), async () => {
    const current = kind.store.get(namespace, name);
    const source = kind.store.source(namespace, name);
    if (!current || !source) throw notFound(kind.plural, name);
    const uid = current.metadata.uid ?? '';
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== uid) throw preconditionFailed(name, 'UID', pre.uid, uid);
    const sourceRv = source.object.metadata?.resourceVersion;
    if (pre?.resourceVersion && !rvAtLeast(pre.resourceVersion, sourceRv)) {
      throw preconditionFailed(name, 'ResourceVersion', pre.resourceVersion, current.metadata.resourceVersion ?? '');
    }
    if (options.dryRun) return { served: current, uid };
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
      const seen = await waitForKind(deps, kind, () => rvAtLeast(kind.store.builtFromRv(namespace, name), deleting));
      return { served: (seen && kind.store.get(namespace, name)) || kind.alone(source.adapter, source.kind, returned), uid };
    }
    await waitForKind(deps, kind, () => kind.store.get(namespace, name)?.metadata.uid !== uid);
    return { served: undefined, uid };
  });
  const gone = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, group: DATABASES_API_GROUP, kind: kind.plural, ...(result.uid ? { uid: result.uid } : {}) },
  };
  sendObject(ctx.res, ctx.req.headers.accept, 200, result.served ?? gone, [warning]);
}
