import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { PolicyReader } from './PolicySource';

/**
 * Reads the policy ConfigMap with the apiserver's own credentials (it needs `get` on that one
 * ConfigMap). A 404 means the platform team declared no policy: no limits.
 */
export function kubePolicyReader(
  kc: KubeConfig,
  namespace: string,
  name: string,
): PolicyReader {
  const api = kc.makeApiClient(CoreV1Api);
  return async () => {
    try {
      const cm = await api.readNamespacedConfigMap({ name, namespace });
      return cm.data ?? {};
    } catch (err) {
      if ((err as { code?: unknown })?.code === 404) return undefined;
      throw err;
    }
  };
}
