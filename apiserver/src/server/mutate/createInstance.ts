import { randomInt, randomUUID } from 'node:crypto';
import {
  DATABASE_INSTANCE_KIND,
  DATABASES_API_GROUP,
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../../adapters/types';
import { SECRETS } from '../../kube/KubeWriter';
import { managedTime, managerName, recordManagers, recordUpdate, type Manager } from '../../managedFields';
import { prepareCreate, writableAdapterFor } from '../../writes/validateSpec';
import { resolveRestore, type RestoreLookups } from '../../writes/resolveRestore';
import { checkRestoreAccess } from './restoreAccess';
import { validateInstanceName } from '../../writes/validateName';
import type { HandlerContext } from '../readHandlers';
import { badRequest, invalid, StatusError } from '../StatusError';
import { decodeInstance, parseObjectBody, type DecodedInstance } from './decodeInstance';
import { projectObject, rvAtLeast, sendObject, waitForCache } from './respondInstance';
import { alreadyExists, toWriteError } from './toWriteError';
import { withoutSystemKeys } from './instanceMetadata';
import { validateMetadata } from './validateMetadata';
import type { WriteDeps } from './WriteDeps';
import { parseWriteOptions, type WriteOptions } from './writeOptions';

/** Characters kube-apiserver appends to a generateName (no vowels, no look-alikes). */
const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATE_ATTEMPTS = 5;

export const randomSuffix = () =>
  Array.from({ length: 5 }, () => GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)]).join('');

/** `Kind.group "name"` of an operator object, as 409s name the holder of a name. */
const describeHolder = (kind: SourceKind, name: string) => `${kind.kind}.${kind.group} "${name}"`;

/** The first operator object already holding `name` in `namespace`, described, or undefined. */
function nameHolder(deps: WriteDeps, namespace: string, name: string): string | undefined {
  const claim = deps.store.claims(namespace, name)[0];
  if (claim) return describeHolder(claim.kind, name);
  return deps.recentCreates.get(`${namespace}/${name}`);
}

/**
 * POST .../namespaces/{ns}/databaseinstances (contract §6.6): decode, namespace and name
 * (generateName), defaults and validation through the engine's adapter (every bad field in
 * one 422), policy (403), the name must be free across every supported operator kind (409),
 * then — unless dryRun — the Secrets the operator needs and the operator object, written with
 * the apiserver's credentials. Nothing half-made stays behind: if the operator object cannot
 * be created, the Secrets created for it are deleted again. Answers 201 with the instance.
 */
export async function createInstance(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  const options = parseWriteOptions(ctx.query, 'CreateOptions');
  const raw = parseObjectBody(ctx.body, ctx.req.headers['content-type']);
  const manager = managerName(options.fieldManager, ctx.req.headers['user-agent']);
  await createFrom(ctx, deps, options, decodeInstance(raw, options.fieldValidation), (request, now) =>
    recordUpdate(undefined, { ...request, metadata: withoutSystemKeys(request.metadata) }, [], manager, now),
  );
}

/** Who owns the fields of a new instance: its creator (an Update), or the applier (an Apply). */
export type CreateOwnership = (request: DatabaseInstance, now: string) => Manager[];

/** The create path shared by POST and a server-side apply of an instance that does not exist. */
export async function createFrom(
  ctx: HandlerContext,
  deps: WriteDeps,
  options: WriteOptions,
  { instance: decoded, warnings }: DecodedInstance,
  ownership: CreateOwnership,
): Promise<void> {
  const namespace = ctx.info.namespace;
  const meta = decoded.metadata;
  if (meta.namespace && meta.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }

  let name = meta.name ?? '';
  if (!name && meta.generateName) {
    for (let i = 0; i < GENERATE_ATTEMPTS && (!name || nameHolder(deps, namespace, name)); i++) {
      name = `${meta.generateName}${randomSuffix()}`;
    }
    if (nameHolder(deps, namespace, name)) {
      throw new StatusError(409, 'AlreadyExists', `${alreadyExists(name).message}, the server was not able to generate a unique name for the object`, {
        ...alreadyExists(name).status.details,
        retryAfterSeconds: 1,
      });
    }
  }

  const request: DatabaseInstance = {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: DATABASE_INSTANCE_KIND,
    metadata: {
      name,
      namespace,
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
    },
    spec: decoded.spec,
  };
  const user = ctx.user ?? { username: '', groups: [] };
  const restoreFrom: unknown = (decoded.spec as { restoreFrom?: unknown } | undefined)?.restoreFrom;
  // authorization comes before validation, as in kube-apiserver: a refused user learns nothing of the backup
  await checkRestoreAccess(deps, user, namespace, (restoreFrom as { backup?: unknown } | undefined)?.backup);
  const prepared = prepareCreate(request, deps.adapters, deps.validation);
  const engine = writableAdapterFor(request.spec, deps.adapters);
  const restore = 'reason' in engine ? { causes: [] } : resolveRestore(restoreFrom, engine.adapter, engine.write, restoreLookups(deps, namespace));
  const causes = [...validateMetadata(request.metadata), ...prepared.causes, ...restore.causes];
  if (!('instance' in prepared) && !causes.some(c => c.field === 'metadata.name')) {
    // without a known engine the per-engine length is unknown; the name is still checked
    causes.unshift(...validateInstanceName(name, 63, 'Kubernetes'));
  }
  if (causes.length || !('instance' in prepared)) {
    throw invalid(DATABASE_INSTANCE_KIND, DATABASES_API_GROUP, name, causes);
  }
  const { instance, adapter, write } = prepared;

  const refusal = await deps.policy.check({ namespace, name, spec: instance.spec, user, current: deps.store.list(namespace) });
  if (refusal) throw refusal;

  const holder = nameHolder(deps, namespace, name);
  if (holder) throw alreadyExists(name, holder);

  const kind = write.kindFor(instance.spec.topology!);
  const built = write.toOperatorObject(instance, { requestedBy: user.username || undefined });
  const restoring = 'source' in restore && restore.source && write.restore ? write.restore.apply(built, restore.source) : built;
  const object = recordManagers(restoring, ownership(request, managedTime()));
  // created paused: the operator is told before it ever acts (prepareCreate refused it where it cannot)
  if (instance.spec.paused === true) write.pause?.set(object, true);
  const source = { adapter, kind };

  if (options.dryRun) {
    const wouldBe: KubeObject = {
      ...object,
      metadata: {
        ...object.metadata,
        uid: randomUUID(),
        creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        generation: 1,
      },
    };
    const answer = projectObject(source, wouldBe);
    delete answer.metadata.resourceVersion;
    sendObject(ctx.res, ctx.req.headers.accept, 201, answer, warnings);
    return;
  }

  const key = `${namespace}/${name}`;
  const created = await deps.locks.run(key, async () => {
    // an earlier request for this name may have finished while this one waited
    const taken = nameHolder(deps, namespace, name);
    if (taken) throw alreadyExists(name, taken);
    const made = await createObjects(deps, namespace, name, kind, object, write.secretsToCreate(instance, deps.generatePassword));
    deps.recentCreates.set(key, describeHolder(kind, name));
    warnings.push(...made.warnings);
    return made.created;
  });

  const rv = created.metadata?.resourceVersion;
  // the served instance, not the source object: the cache re-projects after the informer has it
  const seen = await waitForCache(deps, () => {
    const served = deps.store.get(namespace, name);
    return served?.metadata.uid === created.metadata?.uid && rvAtLeast(served?.metadata.resourceVersion, rv);
  });
  if (seen) deps.recentCreates.delete(key);
  else setTimeout(() => deps.recentCreates.delete(key), 60_000).unref?.();
  const answer = (seen && deps.store.get(namespace, name)) || projectObject(source, created);
  sendObject(ctx.res, ctx.req.headers.accept, 201, answer, warnings);
}

/** What `spec.restoreFrom` may name in `namespace`: the backup and instance caches. */
function restoreLookups(deps: WriteDeps, namespace: string): RestoreLookups {
  return {
    namespace,
    now: new Date(),
    backup: name => {
      const backup = deps.backups?.get(namespace, name);
      const source = deps.backups?.source(namespace, name);
      return backup && source ? { backup, object: source.object } : undefined;
    },
    instance: name => {
      const source = deps.store.source(namespace, name);
      return source ? { adapter: source.adapter, object: source.object } : undefined;
    },
  };
}

/** Secrets first (reusing any that exist), then the operator object; rolls the Secrets back on failure. */
async function createObjects(
  deps: WriteDeps,
  namespace: string,
  name: string,
  kind: SourceKind,
  object: KubeObject,
  secrets: KubeObject[],
): Promise<{ created: KubeObject; warnings: string[] }> {
  const createdSecrets: string[] = [];
  const rollback = async () => {
    for (const secretName of createdSecrets) {
      try {
        await deps.writer.delete(SECRETS, namespace, secretName);
      } catch (err) {
        deps.logger.warn('Could not delete a Secret after a failed create', { namespace, secret: secretName, error: toWriteError(err, { verb: 'delete', name, namespace, type: SECRETS }).message });
      }
    }
  };
  for (const secret of secrets) {
    const secretName = secret.metadata?.name ?? '';
    try {
      await deps.writer.create(SECRETS, { ...secret, metadata: { ...secret.metadata, namespace } });
      createdSecrets.push(secretName);
    } catch (err) {
      const status = toWriteError(err, { verb: 'create', name, namespace, type: SECRETS });
      // left over from an earlier instance of this name (operators keep Secrets): use it
      if (status.code === 409) continue;
      await rollback();
      throw status;
    }
  }
  let created: KubeObject;
  try {
    created = await deps.writer.create(kind, object);
  } catch (err) {
    await rollback();
    throw toWriteError(err, { verb: 'create', name, namespace, type: kind });
  }
  // the Secrets go with the instance: the garbage collector deletes them after the operator object
  const owner = {
    apiVersion: created.apiVersion ?? `${kind.group}/${kind.version}`,
    kind: created.kind ?? kind.kind,
    name: created.metadata?.name ?? name,
    uid: created.metadata?.uid,
  };
  const warnings: string[] = [];
  for (const secretName of owner.uid ? createdSecrets : []) {
    const error = await ownSecret(deps, namespace, secretName, owner);
    if (error) {
      deps.logger.warn('Could not make a Secret owned by its operator object', { namespace, secret: secretName, error: error.message });
      // the instance exists; the client is told what is left to clean up, as kube's warnings do
      warnings.push(`Secret "${secretName}" is not owned by ${owner.kind} "${owner.name}" (${error.message}): it outlives the instance; delete it with the instance`);
    }
  }
  return { created, warnings };
}

/** Attempts of the owner-reference patch: a Secret left unowned outlives its instance. */
const OWN_ATTEMPTS = 3;
const OWN_BACKOFF_MS = 200;

/** Makes a Secret owned by the operator object, retrying what may pass on a second try; the error when it could not. */
async function ownSecret(deps: WriteDeps, namespace: string, secretName: string, owner: Record<string, unknown>): Promise<StatusError | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.writer.mergePatch(SECRETS, namespace, secretName, { metadata: { ownerReferences: [owner] } });
      return undefined;
    } catch (err) {
      const status = toWriteError(err, { verb: 'patch', name: secretName, namespace, type: SECRETS });
      // 429, 5xx and lost connections may pass next time; a refusal (403, 404, 422) will not
      const transient = status.code === 429 || status.code >= 500;
      if (!transient || attempt >= OWN_ATTEMPTS) return status;
      await new Promise(r => setTimeout(r, OWN_BACKOFF_MS * attempt));
    }
  }
}
