import type { KubeConfig } from '@kubernetes/client-node';
import { kubeRequest } from './kubeRequest';

/**
 * The cluster's current resourceVersion: a list without a resourceVersion is a quorum read, whose
 * RV is etcd's revision now. Of CRDs (the apiserver lists them anyway), selecting a name no CRD
 * can have, so the answer carries no objects.
 */
export function clusterResourceVersion(kc: KubeConfig): () => Promise<string | undefined> {
  return async () => {
    const list = await kubeRequest<{ metadata?: { resourceVersion?: string } }>(kc, {
      method: 'GET',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=1&fieldSelector=metadata.name%3D-',
      timeoutMs: 5000,
    });
    return list.metadata?.resourceVersion;
  };
}
