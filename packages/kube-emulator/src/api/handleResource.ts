import type { IncomingMessage, ServerResponse } from 'node:http';
import { qualifiedResource } from '../store/storeErrors';
import type { StoredObject } from '../store/types';
import { StoreError } from '../store/types';
import { parseListOptions } from './listOptions';
import { negotiateOutput, type OutputTarget } from './negotiate';
import {
  applyPatch,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
} from './patchObject';
import { selectPage } from './selectPage';
import { errors, writeJson } from './status';
import {
  type IncludeObject,
  parseIncludeObject,
  partialObjectMetadata,
  toTable,
} from './table';
import type { RequestInfo } from './types';
import {
  applyNamespace,
  type Call,
  checkName,
  checkTypeMeta,
  decodeObject,
  deleteOptions,
  gvOf,
  mediaType,
  type Obj,
  type ResourceHandlerContext,
  unknownFieldWarnings,
  writeOptions,
} from './resourceCall';
import { waitForResourceVersion } from './waitForResourceVersion';
import { watchResource } from './watchResource';

/**
 * Serves a resource request (contract §6–§8) for any resource the store defines: get, list,
 * watch, create, update, patch, delete, deletecollection and the status subresource.
 * Throws StoreErrors; the caller turns them into Status responses.
 */
export async function handleResource(
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
  body: Buffer | undefined,
  ctx: ResourceHandlerContext,
): Promise<void> {
  const def = ctx.store.resource({
    group: info.apiGroup,
    version: info.apiVersion,
    plural: info.resource,
  });
  if (!def) throw errors.notFoundPath();
  const isNamespaceKind = def.group === '' && def.plural === 'namespaces';
  // `/api/v1/namespaces/x` is the namespace object x, not "namespaces in namespace x".
  const namespace = def.namespaced ? info.namespace || undefined : undefined;
  if (
    !def.namespaced &&
    info.namespace &&
    (!isNamespaceKind || info.namespace !== info.name)
  )
    throw errors.notFoundPath();
  if (
    info.subresource &&
    !(info.subresource === 'status' && def.statusSubresource)
  )
    throw errors.notFoundPath();
  const query = new URL(req.url ?? '/', 'https://localhost').searchParams;
  const call: Call = { req, res, info, def, namespace, query, body, ctx };
  const qualified = qualifiedResource(def);

  switch (info.verb) {
    case 'get':
      return getOne(call);
    case 'list':
      return list(call);
    case 'watch':
      return watch(call);
    case 'create':
      if (info.name || (def.namespaced && !namespace))
        throw errors.methodNotAllowed('create', qualified);
      return create(call);
    case 'update':
      return update(call);
    case 'patch':
      return patch(call);
    case 'delete':
      if (info.subresource) throw errors.methodNotAllowed('delete', qualified);
      return deleteOne(call);
    case 'deletecollection':
      if (def.namespaced && !namespace)
        throw errors.methodNotAllowed('deletecollection', qualified);
      return deleteCollection(call);
    default:
      throw errors.methodNotAllowed(
        info.verb || call.req.method?.toLowerCase() || '',
        qualified,
      );
  }
}

const notFound = (call: Call) =>
  new StoreError(
    404,
    'NotFound',
    `${qualifiedResource(call.def)} "${call.info.name}" not found`,
    {
      name: call.info.name,
      group: call.def.group,
      kind: call.def.plural,
    },
  );

function respondObject(
  call: Call,
  code: number,
  obj: StoredObject,
  output: OutputTarget,
  headers: Record<string, string> = {},
) {
  if (output === 'PartialObjectMetadataList') {
    throw new StoreError(
      406,
      'NotAcceptable',
      `you requested PartialObjectMetadataList, but the requested object is not a list (${gvOf(call.def)}, Kind=${call.def.kind})`,
    );
  }
  if (output === 'Table') {
    const includeObject = parseIncludeObject(call.query.get('includeObject'));
    return writeJson(
      call.res,
      code,
      toTable(call.def, [obj], { includeObject }),
      'application/json;as=Table;g=meta.k8s.io;v=v1',
      headers,
    );
  }
  if (output === 'PartialObjectMetadata') {
    return writeJson(
      call.res,
      code,
      partialObjectMetadata(obj),
      'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
      headers,
    );
  }
  return writeJson(call.res, code, obj, 'application/json', headers);
}

async function getOne(call: Call) {
  const output = negotiateOutput(call.req.headers.accept);
  const rv = call.query.get('resourceVersion');
  if (rv && /^\d+$/.test(rv) && Number(rv) > 0)
    await waitForResourceVersion(call.ctx.store, Number(rv));
  const obj = call.ctx.store.get(call.def, call.namespace, call.info.name);
  if (!obj) throw notFound(call);
  return respondObject(call, 200, obj, output);
}

async function list(call: Call) {
  const output = negotiateOutput(call.req.headers.accept);
  const opts = parseListOptions(call.query, call.def, false);
  const requested =
    opts.resourceVersion === undefined ? 0 : Number(opts.resourceVersion);
  if (requested > 0 && !opts.continueToken)
    await waitForResourceVersion(call.ctx.store, requested);
  const page = selectPage(call.ctx.store, call.def, call.namespace, opts);
  const metadata: Obj = { resourceVersion: String(page.rv) };
  if (page.continueToken) {
    metadata.continue = page.continueToken;
    metadata.remainingItemCount = page.remaining;
  }
  if (output === 'PartialObjectMetadata') {
    throw new StoreError(
      406,
      'NotAcceptable',
      `you requested PartialObjectMetadata, but the requested object is a list (${gvOf(call.def)}, Kind=${call.def.listKind})`,
    );
  }
  if (output === 'Table') {
    const includeObject = parseIncludeObject(call.query.get('includeObject'));
    return writeJson(
      call.res,
      200,
      toTable(call.def, page.items, { includeObject, listMeta: metadata }),
      'application/json;as=Table;g=meta.k8s.io;v=v1',
    );
  }
  if (output === 'PartialObjectMetadataList') {
    return writeJson(
      call.res,
      200,
      {
        kind: 'PartialObjectMetadataList',
        apiVersion: 'meta.k8s.io/v1',
        metadata,
        items: page.items.map(partialObjectMetadata),
      },
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    );
  }
  return writeJson(call.res, 200, {
    apiVersion: gvOf(call.def),
    kind: call.def.listKind,
    metadata,
    items: page.items,
  });
}

async function watch(call: Call) {
  const output = negotiateOutput(call.req.headers.accept);
  const includeObject: IncludeObject =
    output === 'Table'
      ? parseIncludeObject(call.query.get('includeObject'))
      : 'Metadata';
  const opts = parseListOptions(call.query, call.def, true);
  if (call.info.name) {
    // `/watch/.../name` path form and fieldSelector=metadata.name=x both narrow to one object
    opts.fieldSelector = [
      ...opts.fieldSelector,
      { field: 'metadata.name', operator: '=', value: call.info.name },
    ];
  }
  return watchResource(
    call.req,
    call.res,
    call.def,
    call.namespace,
    opts,
    output,
    includeObject,
    call.ctx,
  );
}

// --- writes -------------------------------------------------------------------------------------

async function create(call: Call) {
  const output = negotiateOutput(call.req.headers.accept);
  const wo = writeOptions(call.query);
  const obj = decodeObject(call);
  applyNamespace(call, obj);
  const headers = unknownFieldWarnings(call, obj, wo);
  const created = call.ctx.store.create(call.def, obj, { dryRun: wo.dryRun });
  return respondObject(call, 201, created, output, headers);
}

async function update(call: Call) {
  if (!call.info.name)
    throw errors.methodNotAllowed('update', qualifiedResource(call.def));
  const output = negotiateOutput(call.req.headers.accept);
  const wo = writeOptions(call.query);
  const obj = decodeObject(call);
  checkName(call, obj);
  applyNamespace(call, obj);
  const headers = unknownFieldWarnings(call, obj, wo);
  const subresource = call.info.subresource === 'status' ? 'status' : undefined;
  const updated = call.ctx.store.update(call.def, obj, {
    subresource,
    dryRun: wo.dryRun,
  });
  return respondObject(call, 200, updated, output, headers);
}

async function patch(call: Call) {
  if (!call.info.name)
    throw errors.methodNotAllowed('patch', qualifiedResource(call.def));
  const output = negotiateOutput(call.req.headers.accept);
  const type = mediaType(call.req);
  // kubectl sends strategic merge patches for built-in kinds; custom resources refuse them as kube does (415).
  const accepted = call.def.schema
    ? [JSON_PATCH, MERGE_PATCH]
    : [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH];
  if (!accepted.includes(type)) throw errors.unsupportedMediaType(accepted);
  const wo = writeOptions(call.query);
  const current = call.ctx.store.get(call.def, call.namespace, call.info.name);
  if (!current) throw notFound(call);
  const patched = applyPatch(type, current, call.body?.toString('utf8') ?? '', {
    kind: call.def.kind,
    group: call.def.group,
    name: call.info.name,
  }) as Obj;
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched))
    throw errors.badRequest('the patch does not produce an object');
  checkTypeMeta(call, patched);
  if (patched.metadata.name !== call.info.name) {
    throw errors.badRequest(
      `the name of the object (${patched.metadata.name}) does not match the name on the URL (${call.info.name})`,
    );
  }
  applyNamespace(call, patched);
  const headers = unknownFieldWarnings(call, patched, wo);
  const subresource = call.info.subresource === 'status' ? 'status' : undefined;
  const updated = call.ctx.store.update(call.def, patched, {
    subresource,
    dryRun: wo.dryRun,
  });
  return respondObject(call, 200, updated, output, headers);
}

async function deleteOne(call: Call) {
  const opts = deleteOptions(call);
  const result = call.ctx.store.delete(
    call.def,
    call.namespace,
    call.info.name,
    opts,
  );
  const stillThere =
    !opts.dryRun &&
    call.ctx.store.get(call.def, call.namespace, call.info.name);
  if (stillThere || opts.dryRun)
    return writeJson(call.res, 200, stillThere || result);
  return writeJson(call.res, 200, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: {
      name: call.info.name,
      group: call.def.group,
      kind: call.def.plural,
      uid: result.metadata.uid,
    },
  });
}

async function deleteCollection(call: Call) {
  const opts = deleteOptions(call);
  const listOpts = parseListOptions(call.query, call.def, false);
  const { items } = selectPage(call.ctx.store, call.def, call.namespace, {
    ...listOpts,
    limit: undefined,
    continueToken: undefined,
  });
  const deleted: StoredObject[] = [];
  for (const o of items) {
    try {
      deleted.push(
        call.ctx.store.delete(call.def, o.metadata.namespace, o.metadata.name, {
          dryRun: opts.dryRun,
        }),
      );
    } catch (e) {
      // deleted meanwhile by a cascade (namespace or CRD removal): nothing left to do
      if (!(e instanceof StoreError && e.code === 404)) throw e;
    }
  }
  return writeJson(call.res, 200, {
    apiVersion: gvOf(call.def),
    kind: call.def.listKind,
    metadata: { resourceVersion: String(call.ctx.store.currentRV()) },
    items: deleted,
  });
}
