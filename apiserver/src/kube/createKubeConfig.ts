import { KubeConfig } from '@kubernetes/client-node';

/** How to reach kube-apiserver. */
export interface KubeConfigOptions {
  /** Path to a kubeconfig file; unset means in-cluster (service account token and CA). */
  kubeconfig?: string;
  /** Context to use from the kubeconfig file (default: its current-context). */
  context?: string;
}

/**
 * Builds the client-node KubeConfig the apiserver uses for every call to kube-apiserver
 * (informers, TokenReview, SubjectAccessReview, writes). Throws with a readable message
 * when the file or the in-cluster environment is unusable, so `main` can exit before serving.
 */
export function createKubeConfig(options: KubeConfigOptions): KubeConfig {
  const kc = new KubeConfig();
  if (options.kubeconfig) {
    kc.loadFromFile(options.kubeconfig);
    if (options.context) {
      kc.setCurrentContext(options.context);
    }
  } else {
    kc.loadFromCluster();
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster || !cluster.server) {
    throw new Error(
      options.kubeconfig
        ? `kubeconfig ${options.kubeconfig} has no current cluster`
        : 'not running in a cluster (KUBERNETES_SERVICE_HOST unset) and no --kubeconfig given',
    );
  }
  return kc;
}

/** A KubeConfig for a server URL with no credentials (tests, local fakes). */
export function kubeConfigForServer(
  server: string,
  token?: string,
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', ...(token ? { token } : {}) }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}
