import { createHash } from 'node:crypto';
import {
  DATABASES_API_GROUP,
  DATABASES_API_VERSION,
  DATABASES_GROUP_VERSION,
} from '@internal/plugin-databases-common';
import type { ResourceDefinition, Verb } from './resources';

/** A served resource with the verbs it implements (discovery advertises exactly these). */
export interface ServedResource {
  definition: ResourceDefinition<any>;
  verbs: Verb[];
  /** `kind` is the subresource's own kind when it is not the resource's (e.g. `connection`). */
  subresources: Array<{ name: string; verbs: Verb[]; kind?: string }>;
}

const groupVersion = { groupVersion: DATABASES_GROUP_VERSION, version: DATABASES_API_VERSION };

/** `GET /apis/<group>` body. */
export function apiGroup() {
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: DATABASES_API_GROUP,
    versions: [groupVersion],
    preferredVersion: groupVersion,
  };
}

/** `GET /apis` v1 body. */
export function apiGroupList() {
  const { kind: _k, apiVersion: _a, ...group } = apiGroup();
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [group] };
}

const sorted = (verbs: Verb[]) => [...verbs].sort();

/** `GET /apis/<group>/<version>` APIResourceList (contract §4.4). */
export function apiResourceList(resources: ServedResource[]) {
  const list: Array<Record<string, unknown>> = [];
  for (const r of resources) {
    const d = r.definition;
    list.push({
      name: d.plural,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: sorted(r.verbs),
      ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
      ...(d.categories?.length ? { categories: d.categories } : {}),
    });
    for (const s of r.subresources) {
      list.push({
        name: `${d.plural}/${s.name}`,
        singularName: '',
        namespaced: d.namespaced,
        kind: s.kind ?? d.kind,
        verbs: sorted(s.verbs),
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: DATABASES_GROUP_VERSION,
    resources: list,
  };
}

/** Aggregated discovery `APIGroupDiscoveryList` (contract §4.5) in `apidiscovery.k8s.io/<version>`. */
export function apiGroupDiscoveryList(resources: ServedResource[], version: 'v2' | 'v2beta1') {
  const responseKind = (kind: string) => ({
    group: DATABASES_API_GROUP,
    version: DATABASES_API_VERSION,
    kind,
  });
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: [
      {
        metadata: { name: DATABASES_API_GROUP, creationTimestamp: null },
        versions: [
          {
            version: DATABASES_API_VERSION,
            resources: resources.map(r => {
              const d = r.definition;
              return {
                resource: d.plural,
                responseKind: responseKind(d.kind),
                scope: d.namespaced ? 'Namespaced' : 'Cluster',
                singularResource: d.singular,
                verbs: sorted(r.verbs),
                ...(d.shortNames?.length ? { shortNames: d.shortNames } : {}),
                ...(d.categories?.length ? { categories: d.categories } : {}),
                ...(r.subresources.length
                  ? {
                      subresources: r.subresources.map(s => ({
                        subresource: s.name,
                        responseKind: responseKind(s.kind ?? d.kind),
                        verbs: sorted(s.verbs),
                      })),
                    }
                  : {}),
              };
            }),
            freshness: 'Current',
          },
        ],
      },
    ],
  };
}

/** A pre-serialised document with its quoted ETag (upper-case hex SHA-512, as kube does). */
export interface EncodedDocument {
  body: string;
  hash: string;
  etag: string;
}

/** Serialises once so discovery and OpenAPI are served from memory, independent of storage. */
export function encodeDocument(doc: unknown): EncodedDocument {
  const body = JSON.stringify(doc);
  const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
  return { body, hash, etag: `"${hash}"` };
}

/** All discovery documents of the server, built once. */
export interface DiscoveryDocuments {
  apiGroupList: EncodedDocument;
  apiGroup: EncodedDocument;
  apiResourceList: EncodedDocument;
  aggregated: Record<'v2' | 'v2beta1', EncodedDocument>;
}

/** Builds every discovery document from the served-resource table. */
export function buildDiscovery(resources: ServedResource[]): DiscoveryDocuments {
  return {
    apiGroupList: encodeDocument(apiGroupList()),
    apiGroup: encodeDocument(apiGroup()),
    apiResourceList: encodeDocument(apiResourceList(resources)),
    aggregated: {
      v2: encodeDocument(apiGroupDiscoveryList(resources, 'v2')),
      v2beta1: encodeDocument(apiGroupDiscoveryList(resources, 'v2beta1')),
    },
  };
}
