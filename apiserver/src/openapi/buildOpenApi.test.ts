import { describe, expect, it } from '@jest/globals';
import { databaseEngines, databaseInstances } from '../server/resources';
import type { ServedResource } from '../server/discovery';
import { buildOpenApiV2, buildOpenApiV3 } from './buildOpenApi';
import { adapters } from '../adapters/registry';

const readOnly: ServedResource[] = [
  { definition: databaseInstances, verbs: ['get', 'list', 'watch'], subresources: [{ name: 'status', verbs: ['get'] }] },
  { definition: databaseEngines, verbs: ['get', 'list'], subresources: [] },
];
const served: ServedResource[] = [
  {
    definition: databaseInstances,
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
    subresources: [
      { name: 'status', verbs: ['get'] },
      { name: 'connection', verbs: ['get'], kind: 'DatabaseInstanceConnection' },
      { name: 'diagnosis', verbs: ['get'], kind: 'DatabaseInstanceDiagnosis' },
    ],
  },
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
      `${P}/namespaces/{namespace}/databaseinstances/{name}/connection`,
      `${P}/namespaces/{namespace}/databaseinstances/{name}/diagnosis`,
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

  it('advertises no writes for a read-only server (they answer 405)', () => {
    for (const item of Object.values<any>(buildOpenApiV3(readOnly).paths)) expect(Object.keys(item).sort()).toEqual(['get', 'parameters']);
  });

  it('has an operation for exactly the verbs served', () => {
    const methods = (path: string) => Object.keys(v3.paths[path]).filter(k => k !== 'parameters').sort();
    expect(methods(`${P}/namespaces/{namespace}/databaseinstances`)).toEqual(['delete', 'get', 'post']);
    expect(methods(`${P}/namespaces/{namespace}/databaseinstances/{name}`)).toEqual(['delete', 'get', 'patch', 'put']);
    expect(methods(`${P}/databaseinstances`)).toEqual(['get']);
    expect(methods(`${P}/namespaces/{namespace}/databaseinstances/{name}/status`)).toEqual(['get']);
    expect(methods(`${P}/databaseengines/{name}`)).toEqual(['get']);
    const actions = Object.values<any>(v3.paths).flatMap(item => Object.values<any>(item).map(o => o['x-kubernetes-action']).filter(Boolean));
    expect(new Set(actions)).toEqual(new Set(['get', 'list', 'post', 'put', 'patch', 'delete', 'deletecollection']));
  });

  it('offers only the patch types implemented: server-side apply, no strategic merge patch', () => {
    const item = `${P}/namespaces/{namespace}/databaseinstances/{name}`;
    const patchTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];
    expect(Object.keys(v3.paths[item].patch.requestBody.content).sort()).toEqual(patchTypes);
    expect([...v2.paths[item].patch.consumes].sort()).toEqual(patchTypes);
  });

  it('declares dryRun, fieldManager and fieldValidation on writes (kubectl then validates on the server), force on patch only', () => {
    const single = v3.paths[`${P}/namespaces/{namespace}/databaseinstances/{name}`];
    const collection = v3.paths[`${P}/namespaces/{namespace}/databaseinstances`];
    const namesOf = (op: any) => op.parameters.map((p: any) => p.name);
    for (const op of [single.put, single.patch, collection.post]) {
      expect(namesOf(op)).toEqual(expect.arrayContaining(['dryRun', 'fieldManager', 'fieldValidation']));
    }
    expect(namesOf(single.patch)).toContain('force');
    expect(namesOf(single.put)).not.toContain('force');
    expect(namesOf(collection.post)).not.toContain('force');
    for (const op of [single.delete, collection.delete]) {
      expect(op.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['dryRun', 'propagationPolicy']));
      expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    }
    expect(collection.post.responses['201']).toBeDefined();
  });

  it('describes the connection subresource with its own kind', () => {
    const op = v3.paths[`${P}/namespaces/{namespace}/databaseinstances/{name}/connection`].get;
    expect(op['x-kubernetes-group-version-kind'].kind).toBe('DatabaseInstanceConnection');
    const schema = resolve(op.responses['200'].content['application/json'].schema);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['host', 'port', 'username', 'password', 'uri', 'endpoints']));
  });

  it('describes the diagnosis subresource with its own kind and finding schema', () => {
    const op = v3.paths[`${P}/namespaces/{namespace}/databaseinstances/{name}/diagnosis`].get;
    expect(op['x-kubernetes-group-version-kind'].kind).toBe('DatabaseInstanceDiagnosis');
    const schema = resolve(op.responses['200'].content['application/json'].schema);
    expect(schema.required).toEqual(['findings']);
    const finding = resolve(schema.properties.findings.items.allOf[0]);
    expect(finding.required).toEqual(['reason', 'severity', 'message', 'hint', 'objects']);
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
    expect(kinds).toEqual(['DatabaseBackup', 'DatabaseBackupList', 'DatabaseBackupSchedule', 'DatabaseBackupScheduleList', 'DatabaseEngine', 'DatabaseEngineList', 'DatabaseInstance', 'DatabaseInstanceConnection', 'DatabaseInstanceDiagnosis', 'DatabaseInstanceList']);
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
    expect(status.properties.phase.enum).toEqual(['Pending', 'Provisioning', 'Ready', 'Updating', 'Degraded', 'Failed', 'Paused', 'Deleting', 'Unknown']);
    // The engines are the registry's: a new adapter needs no change here.
    expect(spec.properties.engine.enum).toEqual([...new Set(adapters.map(a => a.engine))]);
    expect(spec.properties.engine.enum).toEqual(expect.arrayContaining(['mariadb', 'postgresql']));
    expect(spec.properties.topology.enum).toContain('galera');
    expect(resolve(instance.properties.metadata).properties.name).toBeDefined();
  });

  it('describes DatabaseEngine.spec.sizes and .replicas field by field (kubectl explain databaseengine.spec.sizes)', () => {
    const spec = resolve(resolve(schemas['dev.platform.dbaas.v1alpha1.DatabaseEngine']).properties.spec);
    expect(spec.properties.sizes.type).toBe('array');
    const size = resolve(spec.properties.sizes.items);
    const replicas = resolve(spec.properties.replicas.additionalProperties);
    expect(Object.keys(size.properties).sort()).toEqual(['name', 'resources', 'storage', 'title']);
    expect(Object.keys(replicas.properties).sort()).toEqual(['default', 'description', 'max', 'min', 'odd']);
    for (const s of [spec, size, replicas, resolve(size.properties.resources), resolve(size.properties.storage)]) {
      expect(s.description).toEqual(expect.any(String));
      for (const [name, field] of Object.entries<any>(s.properties)) {
        expect([name, typeof field.description]).toEqual([name, 'string']);
      }
    }
    const v2Spec = v2.definitions['dev.platform.dbaas.v1alpha1.DatabaseEngineSpec'];
    expect(v2Spec.properties.sizes.items.$ref).toBe('#/definitions/dev.platform.dbaas.v1alpha1.EngineSize');
    expect(v2Spec.properties.replicas.additionalProperties.$ref).toBe('#/definitions/dev.platform.dbaas.v1alpha1.EngineReplicas');
  });

  it('uses the upstream names for meta.k8s.io schemas', () => {
    for (const name of ['ObjectMeta', 'ListMeta', 'Status', 'WatchEvent', 'Time', 'ManagedFieldsEntry', 'OwnerReference', 'Condition']) {
      expect(schemas[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`]).toBeDefined();
    }
  });
});
