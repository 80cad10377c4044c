import { loadCompactCrds } from '../../crds/loadCompactCrds';
import type { ResourceDefinition } from '../../store/types';
import { FakeObjectStore } from './FakeObjectStore';

const builtin = (
  group: string,
  plural: string,
  kind: string,
  namespaced: boolean,
  statusSubresource: boolean,
): ResourceDefinition => ({
  group,
  version: 'v1',
  plural,
  kind,
  listKind: `${kind}List`,
  singular: kind.toLowerCase(),
  namespaced,
  statusSubresource,
});

/** ResourceDefinitions for every served version of a CRD object. */
export function definitionsOf(crd: Record<string, any>): ResourceDefinition[] {
  return crd.spec.versions
    .filter((v: any) => v.served)
    .map((v: any) => ({
      group: crd.spec.group,
      version: v.name,
      plural: crd.spec.names.plural,
      kind: crd.spec.names.kind,
      listKind: crd.spec.names.listKind,
      singular: crd.spec.names.singular,
      namespaced: crd.spec.scope === 'Namespaced',
      statusSubresource: !!v.subresources?.status,
      schema: v.schema?.openAPIV3Schema,
    }));
}

/** A FakeObjectStore with namespaces, secrets, events, services, statefulsets, deployments, pods, claims and the compact CRDs. */
export function fakeCluster(): FakeObjectStore {
  const store = new FakeObjectStore();
  store.defineResource(builtin('', 'namespaces', 'Namespace', false, true));
  store.defineResource(builtin('', 'secrets', 'Secret', true, false));
  store.defineResource(builtin('', 'events', 'Event', true, false));
  store.defineResource(builtin('', 'services', 'Service', true, true));
  store.defineResource(
    builtin('apps', 'statefulsets', 'StatefulSet', true, true),
  );
  store.defineResource(
    builtin('apps', 'deployments', 'Deployment', true, true),
  );
  store.defineResource(builtin('', 'pods', 'Pod', true, true));
  store.defineResource(
    builtin('', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, true),
  );
  store.defineResource(builtin('batch', 'jobs', 'Job', true, true));
  store.defineResource(builtin('batch', 'cronjobs', 'CronJob', true, true));
  for (const crd of loadCompactCrds())
    for (const def of definitionsOf(crd)) store.defineResource(def);
  return store;
}
