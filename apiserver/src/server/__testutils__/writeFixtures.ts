import type { DatabaseEngineName, DatabaseInstance, DatabaseInstanceSpec, ObjectMeta } from '@internal/plugin-databases-common';
import { findAdapterForEngine } from '../../adapters/registry';
import type { AdapterWriteSide, KubeObject, OperatorAdapter, SourceKind } from '../../adapters/types';
import { applyDefaults } from '../../writes/defaults';
import type { TestServer } from './testServer';

export const P = '/apis/dbaas.platform.dev/v1alpha1';
export const NS = `${P}/namespaces/team-a`;
export const INSTANCES = `${NS}/databaseinstances`;

/** The writable adapter of an engine (test shorthand). */
export function writable(engine: DatabaseEngineName): OperatorAdapter & { write: AdapterWriteSide } {
  const adapter = findAdapterForEngine(engine)!;
  return adapter as OperatorAdapter & { write: AdapterWriteSide };
}

/** A DatabaseInstance request body. */
export function instanceBody(name: string | undefined, spec: Partial<DatabaseInstanceSpec> & Record<string, unknown>, metadata: ObjectMeta & Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { ...(name ? { name } : {}), ...metadata },
    spec,
    ...extra,
  });
}

/**
 * Puts an operator object for `name` into the fake cluster, built by the engine's own write
 * side from defaults plus `spec` (an instance adopted or created earlier). Returns its kind.
 */
export function seedInstance(
  t: TestServer,
  engine: DatabaseEngineName,
  name: string,
  spec: Partial<DatabaseInstanceSpec> = {},
  metadata: Partial<NonNullable<KubeObject['metadata']>> = {},
  namespace = 'team-a',
): { kind: SourceKind; object: KubeObject } {
  const adapter = writable(engine);
  const instance: DatabaseInstance = {
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name, namespace },
    spec: applyDefaults({ engine, ...spec }, adapter.write),
  };
  const kind = adapter.write.kindFor(instance.spec.topology!);
  const built = adapter.write.toOperatorObject(instance, { requestedBy: 'someone' });
  const object = t.writer.seed(kind, { ...built, metadata: { ...built.metadata, ...metadata } });
  return { kind, object };
}

/** JSON request options for the test client. */
export const json = (method: string, body: string | undefined, token: string | null = 'alice', contentType = 'application/json') => ({
  method,
  token,
  ...(body !== undefined ? { body } : {}),
  headers: { 'content-type': contentType },
});
