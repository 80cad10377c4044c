import {
  DATABASES_API_GROUP,
  DATABASES_API_VERSION,
} from '@internal/plugin-databases-common';
import type { ServedResource } from '../server/discovery';
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
  method: 'get';
  operationId: string;
  action: 'get' | 'list';
  description: string;
  kind: string;
  responseSchema: string;
  params: Param[];
  streams: boolean;
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

const camel = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const GROUP_ID = DATABASES_API_GROUP.split('.').map(camel).join('') + camel(DATABASES_API_VERSION);

/** The path items of the served resources; only implemented verbs get an operation. */
function pathItems(resources: ServedResource[]): PathItem[] {
  const items: PathItem[] = [];
  for (const r of resources) {
    const d = r.definition;
    const canList = r.verbs.includes('list');
    const canGet = r.verbs.includes('get');
    const scope = d.namespaced ? 'Namespaced' : '';
    const base = d.namespaced ? `${P}/namespaces/{namespace}/${d.plural}` : `${P}/${d.plural}`;
    const scopeParams = d.namespaced ? [NAMESPACE] : [];
    const list = (id: string, path: string, params: Param[], what: string): PathItem => ({
      path,
      params: [...params, PRETTY],
      operations: [
        {
          method: 'get',
          operationId: id,
          action: 'list',
          description: what,
          kind: d.kind,
          responseSchema: schemaName(d.listKind),
          params: LIST_PARAMS,
          streams: r.verbs.includes('watch'),
        },
      ],
    });
    if (canList) {
      items.push(list(`list${GROUP_ID}${scope}${d.kind}`, base, scopeParams, `list or watch objects of kind ${d.kind}`));
      if (d.namespaced) {
        items.push(
          list(`list${GROUP_ID}${d.kind}ForAllNamespaces`, `${P}/${d.plural}`, [], `list or watch objects of kind ${d.kind} in all namespaces`),
        );
      }
    }
    if (canGet) {
      items.push({
        path: `${base}/{name}`,
        params: [NAME, ...scopeParams, PRETTY],
        operations: [
          {
            method: 'get',
            operationId: `read${GROUP_ID}${scope}${d.kind}`,
            action: 'get',
            description: `read the specified ${d.kind}`,
            kind: d.kind,
            responseSchema: schemaName(d.kind),
            params: [],
            streams: false,
          },
        ],
      });
    }
    for (const s of r.subresources) {
      if (!s.verbs.includes('get')) continue;
      items.push({
        path: `${base}/{name}/${s.name}`,
        params: [NAME, ...scopeParams, PRETTY],
        operations: [
          {
            method: 'get',
            operationId: `read${GROUP_ID}${scope}${d.kind}${camel(s.name)}`,
            action: 'get',
            description: `read ${s.name} of the specified ${d.kind}`,
            kind: d.kind,
            responseSchema: schemaName(d.kind),
            params: [],
            streams: false,
          },
        ],
      });
    }
  }
  return items;
}

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
      entry[op.method] = {
        tags: [tag],
        description: op.description,
        operationId: op.operationId,
        ...(op.params.length ? { parameters: op.params.map(v3Param) } : {}),
        responses: {
          '200': { description: 'OK', content },
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
      entry[op.method] = {
        tags: [tag],
        description: op.description,
        operationId: op.operationId,
        consumes: ['*/*'],
        produces: ['application/json', 'application/yaml', ...(op.streams ? ['application/json;stream=watch'] : [])],
        schemes: ['https'],
        ...(op.params.length ? { parameters: op.params.map(v2Param) } : {}),
        responses: {
          '200': { description: 'OK', schema: { $ref: `#/definitions/${op.responseSchema}` } },
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

