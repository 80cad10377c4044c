import {
  DATABASE_BACKUP_KIND,
  DATABASE_BACKUP_PLURAL,
  DATABASES_API_GROUP,
  type DatabaseBackup,
} from '@internal/plugin-databases-common';
import type { KubeObject, SourceKind } from '../../adapters/types';
import type { BackupStore } from '../../backups/BackupStore';
import { hasBackups, type AdapterWithBackups } from '../../backups/backupRunAdapters';
import { type FieldCause, invalid as invalidField, required } from '../../writes/FieldCause';
import { validateInstanceName } from '../../writes/validateName';
import type { HandlerContext } from '../readHandlers';
import { invalid } from '../StatusError';
import { decodeBackup } from './decodeBackup';
import { parseObjectBody } from './decodeInstance';
import { createProjected, deleteProjected, requestedName, writeKey, type ProjectedKindWrites } from './projectedWrites';
import { alreadyExists } from './toWriteError';
import { validateMetadata } from './validateMetadata';
import type { WriteDeps } from './WriteDeps';
import { parseWriteOptions } from './writeOptions';

/** What the backup write handlers need: the instance writes' and the backup store. */
export type BackupWriteDeps = WriteDeps & { backups: BackupStore };

/** Said on every delete: a DatabaseBackup is the operator's object, not the data it wrote. */
export const STORED_DATA_KEPT =
  'the backup data itself is not deleted: no supported operator deletes stored backups with their backup object; remove them from their storage';

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
  return deps.recentCreates.get(writeKey('backup', namespace, name));
}

/** How the writes of databasebackups read their store and serve an object alone. */
const backupKind = (deps: BackupWriteDeps): ProjectedKindWrites<DatabaseBackup, AdapterWithBackups> => ({
  store: deps.backups,
  plural: DATABASE_BACKUP_PLURAL,
  prefix: 'backup',
  alone: projectAlone,
});

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
  const name = requestedName(meta, namespace, n => nameHolder(deps, namespace, n));
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
  await createProjected(ctx, deps, backupKind(deps), {
    adapter,
    type: kindOf(adapter, object),
    object,
    name,
    dryRun: options.dryRun,
    warnings,
    holder: n => nameHolder(deps, namespace, n),
  });
}

/**
 * DELETE .../databasebackups/{name}: deletes the operator's backup object (and, by background
 * propagation, the Jobs it owns), with preconditions and dryRun. The stored backup is not
 * deleted by any supported operator: every answer says so in a Warning, which kubectl prints.
 */
export function deleteBackup(ctx: HandlerContext, deps: BackupWriteDeps): Promise<void> {
  return deleteProjected(ctx, deps, backupKind(deps), `${DATABASE_BACKUP_KIND} "${ctx.pathName}": ${STORED_DATA_KEPT}`);
}
