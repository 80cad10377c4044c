import { DATABASES_GROUP_VERSION, type DatabaseInstance } from '@internal/plugin-databases-common';
import { applyConfiguration, leafPaths, pathString, servedManagers, trackedPart, type FieldConflict } from '../../managedFields';
import type { HandlerContext } from '../readHandlers';
import { MAX_NESTING_DEPTH } from '../nestingDepth';
import { parseYamlText } from '../parseYamlText';
import { badRequest, StatusError } from '../StatusError';
import { createFrom } from './createInstance';
import { asText, decodeInstance } from './decodeInstance';
import { withoutSystemKeys } from './instanceMetadata';
import { awaitRecentCreate } from './respondInstance';
import { runUpdate } from './runUpdate';
import type { WriteDeps } from './WriteDeps';
import { parseWriteOptions } from './writeOptions';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The applied configuration: YAML (JSON is YAML); what kube-apiserver refuses is a 400. */
function parseConfiguration(body: Buffer | undefined): Record<string, unknown> {
  const config = parseYamlText(
    body?.toString('utf8') ?? '',
    () => badRequest(`error decoding YAML: nested deeper than ${MAX_NESTING_DEPTH} levels`),
    message => badRequest(`error decoding YAML: ${message}`),
  );
  if (!isObject(config)) throw badRequest('error decoding YAML: the applied configuration must be an object');
  const version = config.apiVersion === undefined ? '' : asText(config.apiVersion);
  if (version !== DATABASES_GROUP_VERSION) {
    throw badRequest(`Incorrect version specified in apply patch. Specified patch version: ${version}, expected: ${DATABASES_GROUP_VERSION}`);
  }
  const meta = config.metadata;
  if (isObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  return config;
}

/** kube-apiserver's 409 for an apply that would change fields other managers own. */
export function applyConflict(conflicts: FieldConflict[]): StatusError {
  const who = (c: FieldConflict) => {
    const name = JSON.stringify(c.manager.manager);
    if (c.manager.operation !== 'Update') return name;
    return `${name} using ${c.manager.apiVersion}${c.manager.time ? ` at ${c.manager.time}` : ''}`;
  };
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${who(conflicts[0])}: ${pathString(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) byManager.set(who(c), [...(byManager.get(who(c)) ?? []), pathString(c.path)]);
    const lines = [...byManager.keys()].sort().flatMap(m => [`conflicts with ${m}:`, ...byManager.get(m)!.map(p => `- ${p}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, {
    causes: conflicts.map(c => ({ reason: 'FieldManagerConflict', message: `conflict with ${who(c)}`, field: pathString(c.path) })),
  });
}

/**
 * PATCH with `application/apply-patch+yaml`: server-side apply (contract §6.9). The config is
 * merged into the instance under the rules of `applyConfiguration` (conflicts, `force`, fields
 * dropped from the config removed); the result then takes the update path (validation, policy,
 * the write to the operator object, `dryRun`) with the managed fields recorded on the operator
 * object. An instance that does not exist is created from the config (201), as kube-apiserver
 * does. The same config applied again changes nothing and writes nothing.
 */
export async function applyInstance(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  const options = parseWriteOptions(ctx.query, 'PatchOptions', true);
  const config = parseConfiguration(ctx.body);
  const decoded = decodeInstance(config, options.fieldValidation);
  const manager = options.fieldManager!;
  const { namespace } = ctx.info;
  const name = ctx.pathName;
  const configName = decoded.instance.metadata.name;
  if (configName !== undefined && configName !== name) {
    throw badRequest(`the name of the object (${configName}) does not match the name on the URL (${name})`);
  }
  await awaitRecentCreate(deps, namespace, name);
  if (!deps.store.get(namespace, name)) {
    const request = { ...decoded, instance: { ...decoded.instance, metadata: { ...decoded.instance.metadata, name } } };
    const applied = leafPaths(trackedPart({ ...decoded.instance, metadata: withoutSystemKeys(decoded.instance.metadata) }));
    await createFrom(ctx, deps, options, request, (_r: DatabaseInstance, now: string) => [
      { manager, operation: 'Apply', apiVersion: DATABASES_GROUP_VERSION, time: now, fields: applied },
    ]);
    return;
  }
  const pinned = decoded.instance.metadata.resourceVersion !== undefined && decoded.instance.metadata.resourceVersion !== '';
  await runUpdate(
    ctx,
    deps,
    options,
    (current, now) => {
      // keys the apiserver sets are never a conflict, never a field of the applier
      const applying = { ...decoded.instance, metadata: withoutSystemKeys(decoded.instance.metadata) };
      const outcome = applyConfiguration(current, applying, servedManagers(current.metadata), manager, options.force, now);
      if ('conflicts' in outcome) throw applyConflict(outcome.conflicts);
      // labels and annotations as applied (a map the config emptied goes), the rest as served
      // (the served managedFields are replaced by the outcome's managers)
      const { labels: _l, annotations: _a, managedFields: _m, ...kept } = current.metadata;
      const metadata = { ...kept, ...(outcome.object.metadata as object) } as DatabaseInstance['metadata'];
      if (pinned) metadata.resourceVersion = decoded.instance.metadata.resourceVersion;
      return { object: { ...current, metadata, spec: outcome.object.spec ?? {} }, managers: outcome.managers, warnings: decoded.warnings };
    },
    pinned,
  );
}
