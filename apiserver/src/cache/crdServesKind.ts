import type { KubeObject, ResourceType } from '../adapters/types';
import { resourceName } from '../kube/resourcePath';

/** The CRDs resource itself: watched to learn which operators are installed. */
export const CRD_TYPE: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
};

/**
 * Whether a CRD object serves `type` at its version: the CRD is named `<plural>.<group>`,
 * lists that version as served, and is Established. A CRD without any status condition is
 * taken as established (some test servers never write status); a terminating CRD still
 * serves until it is gone, so the deletions of its objects still reach us.
 */
export function crdServesKind(
  crd: KubeObject | undefined,
  type: ResourceType,
): boolean {
  if (!crd || crd.metadata?.name !== resourceName(type)) {
    return false;
  }
  const versions: Array<{ name?: string; served?: boolean }> =
    crd.spec?.versions ?? [];
  if (!versions.some(v => v.name === type.version && v.served !== false)) {
    return false;
  }
  const conditions: Array<{ type?: string; status?: string }> =
    crd.status?.conditions ?? [];
  const established = conditions.find(c => c.type === 'Established');
  return conditions.length === 0 || established?.status === 'True';
}

/** Keeps what crdServesKind reads: CRDs carry whole OpenAPI schemas we must not hold in memory. */
export function slimCrd(crd: KubeObject): KubeObject {
  return {
    apiVersion: crd.apiVersion,
    kind: crd.kind,
    metadata: {
      name: crd.metadata?.name,
      uid: crd.metadata?.uid,
      resourceVersion: crd.metadata?.resourceVersion,
      ...(crd.metadata?.deletionTimestamp
        ? { deletionTimestamp: crd.metadata.deletionTimestamp }
        : {}),
    },
    spec: {
      group: crd.spec?.group,
      names: { plural: crd.spec?.names?.plural, kind: crd.spec?.names?.kind },
      versions: (crd.spec?.versions ?? []).map((v: any) => ({
        name: v?.name,
        served: v?.served,
      })),
    },
    status: {
      conditions: (crd.status?.conditions ?? []).map((c: any) => ({
        type: c?.type,
        status: c?.status,
      })),
    },
  };
}
