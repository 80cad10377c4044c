import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { pruneUnknownFields } from '../store/structuralSchema';
import type { ObjectStore, ResourceDefinition } from '../store/types';
import { StoreError } from '../store/types';
import { decodeProtobufObject, PROTOBUF } from './decodeProtobuf';
import { queryBool } from './queryBool';
import { errors } from './status';
import type { RequestInfo } from './types';
import type { WatchContext } from './watchResource';

/** Dependencies of the generic resource handlers. */
export interface ResourceHandlerContext extends WatchContext {
  store: ObjectStore;
}

export type Obj = Record<string, any>;

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  def: ResourceDefinition;
  /** Namespace the request is scoped to (undefined for cluster-scoped kinds and all-namespaces requests). */
  namespace: string | undefined;
  query: URLSearchParams;
  body: Buffer | undefined;
  ctx: ResourceHandlerContext;
}

export const gvOf = (def: ResourceDefinition) =>
  def.group ? `${def.group}/${def.version}` : def.version;

// --- what a write request says: its options and its body, as k8s.io/apiserver decodes them ------

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: '' | 'Ignore' | 'Warn' | 'Strict';
}

export function writeOptions(query: URLSearchParams): WriteOptions {
  const dryRunValues = query.getAll('dryRun');
  for (const v of dryRunValues) {
    if (v !== 'All') {
      throw new StoreError(
        422,
        'Invalid',
        `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${JSON.stringify([v])}: supported values: "All"`,
        {
          group: 'meta.k8s.io',
          kind: 'CreateOptions',
          causes: [
            {
              reason: 'FieldValueNotSupported',
              message: `Unsupported value: ${JSON.stringify([v])}: supported values: "All"`,
              field: 'dryRun',
            },
          ],
        },
      );
    }
  }
  const fv = query.get('fieldValidation') ?? '';
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(fv)) {
    throw new StoreError(
      422,
      'Invalid',
      `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: ${JSON.stringify(fv)}: supported values: "Ignore", "Strict", "Warn"`,
    );
  }
  if (query.get('force') !== null) {
    throw errors.invalidOptions(
      'PatchOptions',
      'force',
      'FieldValueForbidden',
      'Forbidden: may not be specified for non-apply patch',
    );
  }
  return {
    dryRun: dryRunValues.length > 0,
    fieldValidation: fv as WriteOptions['fieldValidation'],
  };
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** Decodes a create/update body (JSON, or YAML as k8s.io/apiserver also accepts). */
export function decodeObject(call: Call): Obj {
  const type = mediaType(call.req) || 'application/json';
  const text = call.body?.toString('utf8') ?? '';
  let obj: unknown;
  if (type === 'application/json') {
    try {
      obj = JSON.parse(text);
    } catch (e) {
      throw errors.badRequest(
        `the object provided is unrecognized (must be of type ${call.def.kind}): couldn't get version/kind; json parse error: ${(e as Error).message}`,
      );
    }
  } else if (type === 'application/yaml') {
    try {
      obj = parseYaml(text);
    } catch (e) {
      throw errors.badRequest(
        `the object provided is unrecognized (must be of type ${call.def.kind}): ${(e as Error).message}`,
      );
    }
  } else if (type === PROTOBUF && call.body) {
    obj = decodeProtobufObject(call.body, call.def.kind);
  } else {
    throw errors.unsupportedMediaType(['application/json', 'application/yaml']);
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw errors.badRequest(
      `the object provided is unrecognized (must be of type ${call.def.kind})`,
    );
  }
  checkTypeMeta(call, obj as Obj);
  return obj as Obj;
}

export function checkTypeMeta(call: Call, obj: Obj) {
  const gv = gvOf(call.def);
  if (
    obj.apiVersion !== undefined &&
    obj.apiVersion !== '' &&
    obj.apiVersion !== gv
  ) {
    throw errors.badRequest(
      `the API version in the data (${obj.apiVersion}) does not match the expected API version (${gv})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== call.def.kind) {
    throw errors.badRequest(
      `the object provided is unrecognized (must be of type ${call.def.kind}): kind ${obj.kind}`,
    );
  }
  obj.apiVersion = gv;
  obj.kind = call.def.kind;
  obj.metadata ??= {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata))
    throw errors.badRequest('metadata must be an object');
}

export function applyNamespace(call: Call, obj: Obj) {
  if (!call.def.namespaced) return;
  const ns = obj.metadata.namespace;
  if (ns && call.namespace && ns !== call.namespace) {
    throw errors.badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  obj.metadata.namespace = call.namespace ?? ns;
}

/** Unknown-field handling per fieldValidation: Strict ⇒ 400, Warn (default) ⇒ Warning headers. */
export function unknownFieldWarnings(
  call: Call,
  obj: Obj,
  wo: WriteOptions,
): Record<string, string> {
  if (!call.def.schema || wo.fieldValidation === 'Ignore') return {};
  const pruned = pruneUnknownFields(structuredClone(obj), call.def.schema);
  if (pruned.length === 0) return {};
  if (wo.fieldValidation === 'Strict') {
    const fields = pruned
      .map(p => `unknown field ${JSON.stringify(p)}`)
      .join(', ');
    throw errors.badRequest(`strict decoding error: ${fields}`);
  }
  return {
    Warning: pruned
      .map(p => `299 - ${JSON.stringify(`unknown field ${JSON.stringify(p)}`)}`)
      .join(', '),
  };
}

export function checkName(call: Call, obj: Obj) {
  const name = obj.metadata.name;
  if (name !== undefined && name !== call.info.name) {
    throw errors.badRequest(
      `the name of the object (${name}) does not match the name on the URL (${call.info.name})`,
    );
  }
  obj.metadata.name = call.info.name;
}

export interface DeleteOptions {
  dryRun: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export function deleteOptions(call: Call): DeleteOptions {
  let body: Obj = {};
  const text = call.body?.toString('utf8').trim();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw errors.badRequest(
        `error decoding DeleteOptions: ${(e as Error).message}`,
      );
    }
    if (typeof body !== 'object' || body === null)
      throw errors.badRequest('DeleteOptions must be an object');
  }
  const dryRun: string[] = Array.isArray(body.dryRun)
    ? body.dryRun
    : call.query.getAll('dryRun');
  const invalid = (field: string, reason: string, detail: string) =>
    errors.invalidOptions('DeleteOptions', field, reason, detail);
  for (const v of dryRun) {
    if (v !== 'All')
      throw invalid(
        'dryRun',
        'FieldValueNotSupported',
        `Unsupported value: ${JSON.stringify([v])}: supported values: "All"`,
      );
  }
  const policy =
    body.propagationPolicy ?? call.query.get('propagationPolicy') ?? undefined;
  const orphan =
    body.orphanDependents ??
    (call.query.get('orphanDependents') !== null
      ? queryBool(call.query.get('orphanDependents'))
      : undefined);
  if (policy !== undefined && orphan !== undefined) {
    throw invalid(
      'propagationPolicy',
      'FieldValueInvalid',
      `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`,
    );
  }
  if (
    policy !== undefined &&
    !['Orphan', 'Background', 'Foreground'].includes(policy)
  ) {
    throw invalid(
      'propagationPolicy',
      'FieldValueNotSupported',
      `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
    );
  }
  return {
    dryRun: dryRun.length > 0,
    preconditions: body.preconditions ?? undefined,
  };
}

