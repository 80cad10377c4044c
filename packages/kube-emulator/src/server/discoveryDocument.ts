import {
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
  discoveryGroups,
} from '../api/discovery';
import { openapiV3Document, openapiV3Index } from '../api/openapi';
import type { AggregationProxy } from '../api/types';
import type { ObjectStore } from '../store/types';

/**
 * The discovery or OpenAPI document at `path` (trailing slashes removed), built from memory
 * (never from object storage); undefined when there is none. `address` is the server's
 * `host:port`, which `/api` reports.
 */
export function discoveryDocument(
  path: string,
  store: ObjectStore,
  aggregation: AggregationProxy | undefined,
  address: string,
): unknown {
  const resources = store.resources();
  const groups = discoveryGroups(resources, aggregation?.groups() ?? []);
  // Aggregated discovery v2 is answered with the v1 documents as plain application/json:
  // clients (kubectl, client-go) then fall back to per-group-version discovery.
  if (path === '/api') return apiVersions(address);
  if (path === '/apis') return apiGroupList(groups);
  const parts = path.split('/').slice(1);
  if (parts[0] === 'api' && parts.length === 2) {
    const doc = apiResourceList(resources, '', parts[1]);
    if (doc) return doc;
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const group = groups.find(g => g.name === parts[1]);
    if (group) return apiGroupDocument(group);
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const doc = apiResourceList(resources, parts[1], parts[2]);
    if (doc) return doc;
  }
  if (path === '/openapi/v2') {
    // kube-apiserver's merged v2 document; here only what aggregated servers contribute
    // (CRD schemas are not published in v2 by the emulator).
    const merged = aggregation?.openapiV2Spec?.();
    if (merged && Object.keys(merged.paths).length > 0) {
      return {
        swagger: '2.0',
        info: { title: 'Kubernetes', version: 'v1.33.0' },
        paths: merged.paths,
        definitions: merged.definitions,
      };
    }
    return undefined;
  }
  if (path === '/openapi/v3') {
    return {
      paths: {
        ...openapiV3Index(resources),
        ...(aggregation?.openapiV3Paths?.() ?? {}),
      },
    };
  }
  const oapi =
    /^\/openapi\/v3\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (oapi) {
    const doc = oapi[1]
      ? openapiV3Document(resources, '', oapi[1])
      : openapiV3Document(resources, oapi[2], oapi[3]);
    if (doc) return doc;
  }
  return undefined;
}
