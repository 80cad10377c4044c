import { describe, expect, it } from '@jest/globals';
import { databaseEngines, databaseInstances } from '../server/resources';
import type { ServedResource } from '../server/discovery';
import { buildOpenApiV2, buildOpenApiV3 } from './buildOpenApi';

const served: ServedResource[] = [
  { definition: databaseInstances, verbs: ['get', 'list', 'watch'], subresources: [{ name: 'status', verbs: ['get'] }] },
  { definition: databaseEngines, verbs: ['get', 'list'], subresources: [] },
];
const P = '/apis/dbaas.platform.dev/v1alpha1';
const v3 = buildOpenApiV3(served) as any;
const v2 = buildOpenApiV2(served) as any;
const schemas = v3.components.schemas;

/** Every `$ref` in a document. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach(n => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

/** Follows `allOf`/`$ref` like kubectl explain. */
function resolve(schema: any): any {
  if (schema.$ref) return resolve(schemas[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.allOf?.length === 1) return { ...schema, ...resolve(schema.allOf[0]) };
  return schema;
}

describe('OpenAPI documents', () => {
  it('has the paths kubectl explain looks for, with {namespace}/{name} templates', () => {
    expect(Object.keys(v3.paths).sort()).toEqual([
      `${P}/databaseengines`,
      `${P}/databaseengines/{name}`,
      `${P}/databaseinstances`,
      `${P}/namespaces/{namespace}/databaseinstances`,
      `${P}/namespaces/{namespace}/databaseinstances/{name}`,
      `${P}/namespaces/{namespace}/databaseinstances/{name}/status`,
    ]);
    expect(Object.keys(v2.paths).sort()).toEqual(Object.keys(v3.paths).sort());
  });

  it('puts object-form x-kubernetes-group-version-kind and x-kubernetes-action on every operation', () => {
    for (const doc of [v3, v2]) {
      for (const item of Object.values<any>(doc.paths)) {
        for (const op of ['get', 'put', 'post', 'patch', 'delete'].map(m => item[m]).filter(Boolean)) {
          expect(op['x-kubernetes-group-version-kind']).toEqual({ group: 'dbaas.platform.dev', version: 'v1alpha1', kind: expect.any(String) });
          expect(['get', 'list', 'watch', 'watchlist', 'post', 'put', 'patch', 'delete', 'deletecollection']).toContain(op['x-kubernetes-action']);
        }
      }
    }
  });

  it('advertises no writes yet (they answer 405)', () => {
    for (const item of Object.values<any>(v3.paths)) expect(Object.keys(item).sort()).toEqual(['get', 'parameters']);
  });

  it('declares the list/watch query parameters', () => {
    const names = v3.paths[`${P}/namespaces/{namespace}/databaseinstances`].get.parameters.map((p: any) => p.name);
    expect(names).toEqual(expect.arrayContaining([
      'labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'allowWatchBookmarks', 'timeoutSeconds', 'watch',
    ]));
  });

  it('has an array-form GVK on each kind schema', () => {
    const kinds = Object.values<any>(schemas)
      .flatMap(s => s['x-kubernetes-group-version-kind'] ?? [])
      .filter((g: any) => g.group === 'dbaas.platform.dev')
      .map((g: any) => g.kind)
      .sort();
    expect(kinds).toEqual(['DatabaseEngine', 'DatabaseEngineList', 'DatabaseInstance', 'DatabaseInstanceList']);
  });

  it('is self-contained: every $ref resolves (v3 and v2)', () => {
    for (const r of refs(v3)) expect(schemas[r.replace('#/components/schemas/', '')]).toBeDefined();
    for (const r of refs(v2)) expect(v2.definitions[r.replace('#/definitions/', '')]).toBeDefined();
    expect(refs(v2).every(r => r.startsWith('#/definitions/'))).toBe(true);
  });

  it('describes every field kubectl explain databaseinstance.spec / .status shows, with enums', () => {
    const instance = schemas['dev.platform.dbaas.v1alpha1.DatabaseInstance'];
    const spec = resolve(instance.properties.spec);
    const status = resolve(instance.properties.status);
    for (const s of [instance, spec, status]) {
      expect(s.description).toEqual(expect.any(String));
      for (const [name, field] of Object.entries<any>(s.properties)) {
        expect([name, typeof field.description]).toEqual([name, 'string']);
      }
    }
    expect(status.properties.phase.enum).toEqual(['Pending', 'Provisioning', 'Ready', 'Updating', 'Degraded', 'Failed', 'Deleting', 'Unknown']);
    expect(spec.properties.engine.enum).toEqual(['mariadb', 'mysql', 'redis', 'elasticsearch', 'rabbitmq']);
    expect(spec.properties.topology.enum).toContain('galera');
    expect(resolve(instance.properties.metadata).properties.name).toBeDefined();
  });

  it('uses the upstream names for meta.k8s.io schemas', () => {
    for (const name of ['ObjectMeta', 'ListMeta', 'Status', 'WatchEvent', 'Time', 'ManagedFieldsEntry', 'OwnerReference', 'Condition']) {
      expect(schemas[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`]).toBeDefined();
    }
  });
});
