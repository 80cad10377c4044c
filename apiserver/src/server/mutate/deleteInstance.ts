import {
  DATABASE_INSTANCE_KIND,
  DATABASE_INSTANCE_PLURAL,
  DATABASES_API_GROUP,
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject } from '../../adapters/types';
import { rvToBigInt } from '../../cache/resourceVersion';
import type { InstanceSource } from '../../cache/types';
import { isDeletionProtected } from '../../writes/operatorMetadata';
import { parseListOptions } from '../listOptions';
import { objectMatcher, type HandlerContext } from '../readHandlers';
import { databaseInstances } from '../resources';
import { notFound, StatusError } from '../StatusError';
import { parseDeleteOptions, type DeleteOptions } from './deleteOptions';
import { awaitRecentCreate, projectObject, sendObject, servedFrom, staleResourceVersion, waitForCache } from './respondInstance';
import { conflict, preconditionFailed, toWriteError } from './toWriteError';
import type { WriteDeps } from './WriteDeps';

const GR = `${DATABASE_INSTANCE_PLURAL}.${DATABASES_API_GROUP}`;

/** 403 while `spec.deletionProtection` is set: the flag has to be cleared by an update first. */
export const deletionProtected = (name: string) =>
  new StatusError(
    403,
    'Forbidden',
    `${GR} "${name}" is forbidden: deletion protection is enabled; set spec.deletionProtection to false first`,
    {
      name,
      group: DATABASES_API_GROUP,
      kind: DATABASE_INSTANCE_PLURAL,
      causes: [{ reason: 'FieldValueForbidden', field: 'spec.deletionProtection', message: 'Forbidden: deletion protection is enabled' }],
    },
  );

/** `Status{Success}` kube-apiserver answers when an object is gone at once (contract §6.10). */
const deletedStatus = (name: string, uid: string | undefined) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  details: { name, group: DATABASES_API_GROUP, kind: DATABASE_INSTANCE_PLURAL, ...(uid ? { uid } : {}) },
});

/**
 * Deletes the operator object behind one instance (preconditions, deletion protection,
 * dryRun). Resolves the instance as it is now — phase Deleting while the operator's
 * finalizers run — or undefined when the object is already gone.
 */
async function deleteOne(
  deps: WriteDeps,
  namespace: string,
  name: string,
  current: DatabaseInstance,
  source: InstanceSource,
  options: DeleteOptions,
): Promise<DatabaseInstance | undefined> {
  const uid = current.metadata.uid ?? '';
  const sourceRv = source.object.metadata?.resourceVersion;
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== uid) throw preconditionFailed(name, 'UID', pre.uid, uid);
  if (pre?.resourceVersion && staleResourceVersion(deps, namespace, name, pre.resourceVersion, sourceRv, current.metadata.resourceVersion)) {
    throw preconditionFailed(name, 'ResourceVersion', pre.resourceVersion, current.metadata.resourceVersion ?? '');
  }
  if (current.spec.deletionProtection === true) throw deletionProtected(name);
  if (options.dryRun) return current;

  const returned = await deleteChecked(deps, namespace, name, source, options);
  if (returned?.metadata?.deletionTimestamp) {
    const deleting = returned.metadata.resourceVersion;
    const seen = await waitForCache(deps, () => servedFrom(deps, namespace, name, deleting));
    return (seen && deps.store.get(namespace, name)) || projectObject(source, returned, name);
  }
  await waitForCache(deps, () => deps.store.get(namespace, name)?.metadata.uid !== current.metadata.uid);
  return undefined;
}

/** Attempts of a delete whose operator object changed after its protection was checked. */
const DELETE_ATTEMPTS = 5;

/**
 * Deletes the operator object at the resourceVersion whose deletion protection was checked:
 * the check was made on this replica's cache, and the protection may have been set a moment
 * ago through another replica. When the object has changed since (409, or the operator wrote
 * its status), its current version is read from kube-apiserver, checked again, and deleted at
 * that version, as kube-apiserver retries a delete against the newest object.
 */
async function deleteChecked(
  deps: WriteDeps,
  namespace: string,
  name: string,
  source: InstanceSource,
  options: DeleteOptions,
): Promise<KubeObject | undefined> {
  const sourceName = source.object.metadata?.name ?? name;
  const target = { verb: 'delete' as const, name, namespace, type: source.kind };
  let object = source.object;
  for (let attempt = 1; ; attempt++) {
    const { uid, resourceVersion } = object.metadata ?? {};
    try {
      return await deps.writer.delete(source.kind, namespace, sourceName, {
        // the operator's dependents (StatefulSets, Services, PVCs it owns) go with it by default
        propagationPolicy: options.propagationPolicy ?? 'Background',
        preconditions: { ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}) },
      });
    } catch (err) {
      const status = toWriteError(err, target);
      if (status.code !== 409) throw status;
      if (attempt >= DELETE_ATTEMPTS) throw conflict(name);
    }
    let fresh: KubeObject | undefined;
    try {
      fresh = await deps.writer.get(source.kind, namespace, sourceName);
    } catch (err) {
      throw toWriteError(err, { ...target, verb: 'get' });
    }
    // gone or re-created meanwhile: the object the client asked to delete is no more
    if (!fresh || (uid && fresh.metadata?.uid !== uid)) throw notFound(DATABASE_INSTANCE_PLURAL, name);
    if (isDeletionProtected(fresh)) throw deletionProtected(name);
    const pre = options.preconditions?.resourceVersion;
    if (pre && rvToBigInt(pre) < rvToBigInt(fresh.metadata?.resourceVersion)) {
      throw preconditionFailed(name, 'ResourceVersion', pre, fresh.metadata?.resourceVersion ?? '');
    }
    object = fresh;
  }
}

/** DELETE .../databaseinstances/{name} (contract §6.10). */
export async function deleteInstance(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  const options = parseDeleteOptions(ctx.body, ctx.query);
  const namespace = ctx.info.namespace;
  const name = ctx.pathName;
  const result = await deps.locks.run(`${namespace}/${name}`, async () => {
    await awaitRecentCreate(deps, namespace, name);
    const current = deps.store.get(namespace, name);
    const source = deps.store.source(namespace, name);
    if (!current || !source) throw notFound(DATABASE_INSTANCE_PLURAL, name);
    return { instance: await deleteOne(deps, namespace, name, current, source, options), uid: current.metadata.uid };
  });
  sendObject(ctx.res, ctx.req.headers.accept, 200, result.instance ?? deletedStatus(name, result.uid));
}

/**
 * DELETE .../namespaces/{ns}/databaseinstances (contract §6.11): the instances matching the
 * label and field selectors. All or nothing on deletion protection: when any matching
 * instance is protected, nothing is deleted and the 403 names every protected one (a partial
 * delete would be hard to undo; the flag exists to stop exactly this). Answers the list of
 * the instances as they are after the delete (those still finishing are Deleting).
 */
export async function deleteCollection(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  const options = parseDeleteOptions(ctx.body, ctx.query);
  const list = parseListOptions(ctx.query, databaseInstances.fieldSelectors);
  const namespace = ctx.info.namespace;
  const matches = objectMatcher(databaseInstances, namespace, list.labelSelector, list.fieldSelector);
  const selected = deps.store.list(namespace).filter(matches);
  const protectedNames = selected.filter(i => i.spec.deletionProtection === true).map(i => i.metadata.name ?? '');
  if (protectedNames.length) {
    throw new StatusError(
      403,
      'Forbidden',
      `${GR} is forbidden: deletion protection is enabled on ${protectedNames.map(n => `"${n}"`).join(', ')}; set spec.deletionProtection to false on them first (nothing was deleted)`,
      {
        group: DATABASES_API_GROUP,
        kind: DATABASE_INSTANCE_PLURAL,
        causes: protectedNames.map(n => ({ reason: 'FieldValueForbidden', field: 'spec.deletionProtection', message: `Forbidden: deletion protection is enabled on "${n}"` })),
      },
    );
  }
  const items: DatabaseInstance[] = [];
  for (const instance of selected) {
    const name = instance.metadata.name ?? '';
    try {
      const after = await deps.locks.run(`${namespace}/${name}`, async () => {
        const current = deps.store.get(namespace, name);
        const source = deps.store.source(namespace, name);
        if (!current || !source) return undefined;
        return (await deleteOne(deps, namespace, name, current, source, options)) ?? current;
      });
      if (after) items.push(after);
    } catch (err) {
      // gone meanwhile: that is what was asked for
      if (err instanceof StatusError && err.code === 404) continue;
      throw err;
    }
  }
  sendObject(ctx.res, ctx.req.headers.accept, 200, {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: `${DATABASE_INSTANCE_KIND}List`,
    metadata: { resourceVersion: deps.store.resourceVersion() },
    items,
  });
}
