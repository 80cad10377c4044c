import {
  DATABASES_API_GROUP,
  DATABASES_API_VERSION,
} from '@internal/plugin-databases-common';
import type { ServedResource } from '../server/discovery';
import { META_NAMES } from './metaSchemas';
import { allSchemas, schemaName } from './schemas';
import type { Schema } from './types';

interface Param {
  name: string;
  in: 'query' | 'path';
  description: string;
  type: 'string' | 'boolean' | 'integer';
  required?: boolean;
}

/** Neutral description of one operation, rendered into v2 and v3. */
interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  operationId: string;
  action: 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';
  description: string;
  kind: string;
  /** Schema of the 200 (and 201/202 where the verb has them) response. */
  responseSchema: string;
  /** Extra success codes besides 200, with the same schema. */
  alsoCodes?: string[];
  params: Param[];
  streams: boolean;
  /** Request body: schema name and the content types served for it. */
  body?: { schema: string; contentTypes: string[] };
}

interface PathItem {
  path: string;
  params: Param[];
  operations: Operation[];
}

const P = `/apis/${DATABASES_API_GROUP}/${DATABASES_API_VERSION}`;
const q = (name: string, type: Param['type'], description: string): Param => ({
  name,
  in: 'query',
  type,
  description,
});

const PRETTY = q('pretty', 'string', "If 'true', then the output is pretty printed.");
const NAME: Param = { name: 'name', in: 'path', type: 'string', required: true, description: 'name of the object' };
const NAMESPACE: Param = {
  name: 'namespace',
  in: 'path',
  type: 'string',
  required: true,
  description: 'object name and auth scope, such as for teams and projects',
};

/** List/watch query parameters (contract §5.4 rule 5). */
const LIST_PARAMS: Param[] = [
  q('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag.'),
  q('continue', 'string', 'The continue option should be set when retrieving more results from the server. Its value is the continue token of the previous page; it expires after a few minutes (410 Expired).'),
  q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything. Supported: metadata.name, metadata.namespace, and for databaseinstances spec.engine and status.phase.'),
  q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  q('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata. Ignored when resourceVersion=0.'),
  q('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. Defaults to unset.'),
  q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls (Exact or NotOlderThan).'),
  q('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. The stream begins with synthetic ADDED events for the current state, followed by a BOOKMARK annotated "k8s.io/initial-events-end": "true". Requires resourceVersionMatch=NotOlderThan.'),
  q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.'),
];

const DRY_RUN = q('dryRun', 'string', 'When present, indicates that modifications should not be persisted. The only valid value is All: the request is fully processed (validation, policy, name checks) but nothing is written.');
/**
 * Create/update/patch parameters. `fieldValidation` on PATCH makes kubectl leave unknown-field
 * checks to the server (contract §5.6); `force` on PATCH only (server-side apply).
 */
const WRITE_PARAMS: Param[] = [
  DRY_RUN,
  q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. At most 128 printable characters; required for apply patches. Recorded in metadata.managedFields (the product of the User-Agent when unset).'),
  q('fieldValidation', 'string', 'How unknown fields in the body are handled: Ignore drops them, Warn (the default) drops them with a Warning header per field, Strict refuses the request with 400.'),
];
const DELETE_PARAMS: Param[] = [
  DRY_RUN,
  q('gracePeriodSeconds', 'integer', 'Accepted and ignored.'),
  q('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy.'),
  q('propagationPolicy', 'string', "Whether and how the operator object's dependents are garbage collected: Orphan, Background (the default) or Foreground."),
];
/** Patch types served (no strategic merge patch: contract §5.4 rule 4). */
const PATCH_CONTENT_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
const OBJECT_CONTENT_TYPES = ['application/json', 'application/yaml'];

const camel = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const GROUP_ID = DATABASES_API_GROUP.split('.').map(camel).join('') + camel(DATABASES_API_VERSION);

/** The path items of the served resources; only implemented verbs get an operation. */
function pathItems(resources: ServedResource[]): PathItem[] {
  const items: PathItem[] = [];
  for (const r of resources) {
    const d = r.definition;
    const has = (v: ServedResource['verbs'][number]) => r.verbs.includes(v);
    const scope = d.namespaced ? 'Namespaced' : '';
    const base = d.namespaced ? `${P}/namespaces/{namespace}/${d.plural}` : `${P}/${d.plural}`;
    const scopeParams = d.namespaced ? [NAMESPACE] : [];
    const op = (o: Omit<Operation, 'kind' | 'streams' | 'params'> & Partial<Pick<Operation, 'params' | 'streams'>>): Operation => ({
      kind: d.kind,
      streams: false,
      params: [],
      ...o,
    });
    const listOp = (id: string, what: string) =>
      op({
        method: 'get',
        operationId: id,
        action: 'list',
        description: what,
        responseSchema: schemaName(d.listKind),
        params: LIST_PARAMS,
        streams: has('watch'),
      });

    const collection: Operation[] = [];
    if (has('list')) collection.push(listOp(`list${GROUP_ID}${scope}${d.kind}`, `list or watch objects of kind ${d.kind}`));
    if (has('create')) {
      collection.push(
        op({
          method: 'post',
          operationId: `create${GROUP_ID}${scope}${d.kind}`,
          action: 'post',
          description: `create a ${d.kind}`,
          responseSchema: schemaName(d.kind),
          alsoCodes: ['201', '202'],
          params: WRITE_PARAMS,
          body: { schema: schemaName(d.kind), contentTypes: OBJECT_CONTENT_TYPES },
        }),
      );
    }
    if (has('deletecollection')) {
      collection.push(
        op({
          method: 'delete',
          operationId: `deletecollection${GROUP_ID}${scope}${d.kind}`,
          action: 'deletecollection',
          description: `delete collection of ${d.kind} (refused as a whole while any selected one has spec.deletionProtection)`,
          responseSchema: META_NAMES.status,
          params: [...DELETE_PARAMS, ...LIST_PARAMS.filter(p => ['labelSelector', 'fieldSelector'].includes(p.name))],
          body: { schema: META_NAMES.deleteOptions, contentTypes: ['application/json'] },
        }),
      );
    }
    if (collection.length) items.push({ path: base, params: [...scopeParams, PRETTY], operations: collection });
    if (has('list') && d.namespaced) {
      items.push({
        path: `${P}/${d.plural}`,
        params: [PRETTY],
        operations: [listOp(`list${GROUP_ID}${d.kind}ForAllNamespaces`, `list or watch objects of kind ${d.kind} in all namespaces`)],
      });
    }

    const single: Operation[] = [];
    if (has('get')) {
      single.push(op({ method: 'get', operationId: `read${GROUP_ID}${scope}${d.kind}`, action: 'get', description: `read the specified ${d.kind}`, responseSchema: schemaName(d.kind) }));
    }
    if (has('update')) {
      single.push(
        op({
          method: 'put',
          operationId: `replace${GROUP_ID}${scope}${d.kind}`,
          action: 'put',
          description: `replace the specified ${d.kind}`,
          responseSchema: schemaName(d.kind),
          alsoCodes: ['201'],
          params: WRITE_PARAMS,
          body: { schema: schemaName(d.kind), contentTypes: OBJECT_CONTENT_TYPES },
        }),
      );
    }
    if (has('patch')) {
      single.push(
        op({
          method: 'patch',
          operationId: `patch${GROUP_ID}${scope}${d.kind}`,
          action: 'patch',
          description: `partially update the specified ${d.kind} (JSON merge patch, JSON patch or server-side apply)`,
          responseSchema: schemaName(d.kind),
          alsoCodes: ['201'],
          params: [
            ...WRITE_PARAMS,
            q('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'),
          ],
          body: { schema: META_NAMES.patch, contentTypes: PATCH_CONTENT_TYPES },
        }),
      );
    }
    if (has('delete')) {
      single.push(
        op({
          method: 'delete',
          operationId: `delete${GROUP_ID}${scope}${d.kind}`,
          action: 'delete',
          description: `delete a ${d.kind} (refused while spec.deletionProtection is true)`,
          responseSchema: META_NAMES.status,
          alsoCodes: ['202'],
          params: DELETE_PARAMS,
          body: { schema: META_NAMES.deleteOptions, contentTypes: ['application/json'] },
        }),
      );
    }
    if (single.length) items.push({ path: `${base}/{name}`, params: [NAME, ...scopeParams, PRETTY], operations: single });

    for (const s of r.subresources) {
      if (!s.verbs.includes('get')) continue;
      const kind = s.kind ?? d.kind;
      items.push({
        path: `${base}/{name}/${s.name}`,
        params: [NAME, ...scopeParams, PRETTY],
        operations: [
          {
            method: 'get',
            operationId: `read${GROUP_ID}${scope}${d.kind}${camel(s.name)}`,
            action: 'get',
            description: `read ${s.name} of the specified ${d.kind}`,
            kind,
            responseSchema: schemaName(kind),
            params: [],
            streams: false,
          },
        ],
      });
    }
  }
  return items;
}

const CODE_NAMES: Record<string, string> = { '201': 'Created', '202': 'Accepted' };

const gvkOf = (kind: string) => ({ group: DATABASES_API_GROUP, kind, version: DATABASES_API_VERSION });
const tag = `${DATABASES_API_GROUP.split('.')[0]}_${DATABASES_API_VERSION}`;

const v3Param = (p: Param) => ({
  name: p.name,
  in: p.in,
  description: p.description,
  ...(p.required ? { required: true } : {}),
  schema: { type: p.type, uniqueItems: true },
});

/** OpenAPI v3 document of the group-version (`/openapi/v3/apis/<group>/<version>`). */
export function buildOpenApiV3(resources: ServedResource[]) {
  const paths: Record<string, unknown> = {};
  for (const item of pathItems(resources)) {
    const entry: Record<string, unknown> = { parameters: item.params.map(v3Param) };
    for (const op of item.operations) {
      const schema = { $ref: `#/components/schemas/${op.responseSchema}` };
      const content: Record<string, unknown> = {
        'application/json': { schema },
        'application/yaml': { schema },
      };
      if (op.streams) content['application/json;stream=watch'] = { schema };
      const body = op.body;
      entry[op.method] = {
        tags: [tag],
        description: op.description,
        operationId: op.operationId,
        ...(op.params.length ? { parameters: op.params.map(v3Param) } : {}),
        ...(body
          ? {
              requestBody: {
                ...(op.method === 'delete' ? {} : { required: true }),
                content: Object.fromEntries(
                  body.contentTypes.map(t => [t, { schema: { $ref: `#/components/schemas/${body.schema}` } }]),
                ),
              },
            }
          : {}),
        responses: {
          '200': { description: 'OK', content },
          ...Object.fromEntries((op.alsoCodes ?? []).map(code => [code, { description: CODE_NAMES[code], content }])),
          '401': { description: 'Unauthorized' },
        },
        'x-kubernetes-action': op.action,
        'x-kubernetes-group-version-kind': gvkOf(op.kind),
      };
    }
    paths[item.path] = entry;
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    components: {
      schemas: allSchemas,
      securitySchemes: {
        BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' },
      },
    },
    security: [{ BearerToken: [] }],
  };
}

const v2Ref = (ref: string) => ref.replace('#/components/schemas/', '#/definitions/');

/** Rewrites a v3 schema into Swagger 2.0 form: `#/definitions/` refs, `allOf: [ref]` as a plain `$ref`. */
export function toV2Schema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toV2Schema);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Schema;
  const allOf = obj.allOf as Schema[] | undefined;
  if (allOf && allOf.length === 1 && typeof allOf[0].$ref === 'string') {
    const { allOf: _a, default: _d, ...rest } = obj;
    return { ...(toV2Schema(rest) as Schema), $ref: v2Ref(allOf[0].$ref as string) };
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] =
      k === '$ref' && typeof v === 'string'
        ? v2Ref(v)
        : toV2Schema(v);
  }
  return out;
}

const v2Param = (p: Param) => ({
  name: p.name,
  in: p.in,
  description: p.description,
  ...(p.required ? { required: true } : {}),
  type: p.type,
  uniqueItems: true,
});

/** Swagger 2.0 document (`/openapi/v2`) with the same paths and schemas. */
export function buildOpenApiV2(resources: ServedResource[]) {
  const paths: Record<string, unknown> = {};
  for (const item of pathItems(resources)) {
    const entry: Record<string, unknown> = { parameters: item.params.map(v2Param) };
    for (const op of item.operations) {
      const response = { $ref: `#/definitions/${op.responseSchema}` };
      const bodyParam = op.body
        ? [{ name: 'body', in: 'body', ...(op.method === 'delete' ? {} : { required: true }), schema: { $ref: `#/definitions/${op.body.schema}` } }]
        : [];
      entry[op.method] = {
        tags: [tag],
        description: op.description,
        operationId: op.operationId,
        consumes: op.body ? op.body.contentTypes : ['*/*'],
        produces: ['application/json', 'application/yaml', ...(op.streams ? ['application/json;stream=watch'] : [])],
        schemes: ['https'],
        ...(op.params.length || bodyParam.length ? { parameters: [...bodyParam, ...op.params.map(v2Param)] } : {}),
        responses: {
          '200': { description: 'OK', schema: response },
          ...Object.fromEntries((op.alsoCodes ?? []).map(code => [code, { description: CODE_NAMES[code], schema: response }])),
          '401': { description: 'Unauthorized' },
        },
        'x-kubernetes-action': op.action,
        'x-kubernetes-group-version-kind': gvkOf(op.kind),
      };
    }
    paths[item.path] = entry;
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    definitions: toV2Schema(allSchemas),
    securityDefinitions: {
      BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' },
    },
    security: [{ BearerToken: [] }],
  };
}

