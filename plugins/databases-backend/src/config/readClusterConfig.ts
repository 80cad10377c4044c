import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@backstage/config';

/** One cluster from `databases.clusters[]`, validated. */
export interface ClusterConfig {
  name: string;
  title?: string;
  url: string;
  /** PEM text, decoded when configured as base64. */
  caData?: string;
  /** A PEM file, read again when it changes (the pod's CA bundle is). */
  caFile?: string;
  skipTLSVerify: boolean;
  authProvider: 'serviceAccount' | 'none';
  /** A fixed token from config. */
  serviceAccountToken?: string;
  /** A token file, read again when it changes (a bound token rotates). */
  serviceAccountTokenFile?: string;
}

/** Where the kubelet mounts a pod's service account (as client-node's loadFromCluster reads it). */
export const IN_CLUSTER_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** What reading a cluster entry may depend on besides the config (tests replace both). */
export interface ClusterConfigEnvironment {
  /** The pod's service-account directory (default {@link IN_CLUSTER_SERVICE_ACCOUNT_DIR}). */
  serviceAccountDir?: string;
  /** KUBERNETES_SERVICE_HOST/PORT, the in-cluster address of kube-apiserver (default process.env). */
  env?: Record<string, string | undefined>;
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function decodeCa(text: string): string {
  if (text.includes('-----BEGIN')) return text;
  // kubeconfig's certificate-authority-data is base64 of the PEM.
  return Buffer.from(text, 'base64').toString('utf8');
}

/** kube-apiserver's in-cluster URL, as client-node's loadFromCluster builds it. */
function inClusterUrl(env: Record<string, string | undefined>): string | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return undefined;
  const scheme = ['80', '8080', '8001'].includes(port) ? 'http' : 'https';
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Reads and validates `databases.clusters[index]`, pushing each problem (naming its key) to
 * `problems`. Credentials are chosen as Backstage's Kubernetes plugin chooses them for
 * `authProvider: serviceAccount`: `serviceAccountToken` if given, else `serviceAccountTokenFile`,
 * else the pod's own service account (its token and CA, and kube-apiserver's in-cluster address
 * when `url` is left out). Files are read once here so that a missing one stops the start-up.
 */
export function readClusterConfig(
  c: Config,
  index: number,
  problems: string[],
  environment: ClusterConfigEnvironment = {},
): ClusterConfig | undefined {
  const key = `databases.clusters[${index}]`;
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (e) {
      problems.push(`${key}: ${(e as Error).message}`);
      return undefined;
    }
  };
  const readable = (file: string, what: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      problems.push(`${key}.${what} cannot be read: ${(e as Error).message}`);
      return undefined;
    }
  };
  const name = attempt(() => c.getOptionalString('name'));
  let url = attempt(() => c.getOptionalString('url'));
  const authProvider = attempt(() => c.getOptionalString('authProvider'));
  const token = attempt(() => c.getOptionalString('serviceAccountToken'));
  let tokenFile = attempt(() => c.getOptionalString('serviceAccountTokenFile'));
  const caDataRaw = attempt(() => c.getOptionalString('caData'));
  let caFile = attempt(() => c.getOptionalString('caFile'));
  const skip = attempt(() => c.getOptionalBoolean('skipTLSVerify')) ?? false;
  const title = attempt(() => c.getOptionalString('title'));

  if (authProvider !== 'serviceAccount' && authProvider !== 'none')
    problems.push(`${key}.authProvider must be "serviceAccount" or "none", got ${JSON.stringify(authProvider)}`);
  if (token && tokenFile) problems.push(`${key}: give serviceAccountToken or serviceAccountTokenFile, not both`);
  if (authProvider === 'serviceAccount' && !token && !tokenFile) {
    // in the cluster: the pod's own service account, as the Kubernetes plugin does
    const dir = environment.serviceAccountDir ?? IN_CLUSTER_SERVICE_ACCOUNT_DIR;
    tokenFile = path.join(dir, 'token');
    try {
      readFileSync(tokenFile);
    } catch (e) {
      problems.push(
        `${key}: authProvider serviceAccount without serviceAccountToken or serviceAccountTokenFile uses the pod's ` +
          `service account, but ${tokenFile} cannot be read (not running in Kubernetes?): ${(e as Error).message}`,
      );
      tokenFile = undefined;
    }
    if (!caDataRaw && !caFile) caFile = path.join(dir, 'ca.crt');
    url ??= inClusterUrl(environment.env ?? process.env);
  } else if (tokenFile !== undefined && readable(tokenFile, 'serviceAccountTokenFile')?.trim() === '') {
    problems.push(`${key}.serviceAccountTokenFile ${tokenFile} is empty`);
  }

  if (!name) problems.push(`${key}.name is required`);
  else if (!NAME.test(name)) problems.push(`${key}.name "${name}" must be a DNS label (lowercase letters, digits, '-')`);
  if (!url) problems.push(`${key}.url is required (outside the cluster, or without KUBERNETES_SERVICE_HOST/PORT)`);
  else {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') problems.push(`${key}.url must be http(s), got "${url}"`);
    } catch {
      problems.push(`${key}.url "${url}" is not a URL`);
    }
  }
  const caData = caDataRaw ? decodeCa(caDataRaw) : undefined;
  const caText = caFile ? readable(caFile, 'caFile') : caData;
  if (caText !== undefined && !caText.includes('-----BEGIN CERTIFICATE'))
    problems.push(`${key}.${caFile ? 'caFile' : 'caData'} is neither a PEM certificate nor base64 of one`);
  if (!name || !url || (authProvider !== 'serviceAccount' && authProvider !== 'none')) return undefined;
  return {
    name,
    ...(title ? { title } : {}),
    url: url.replace(/\/+$/, ''),
    caData: caFile ? undefined : caData,
    ...(caFile ? { caFile } : {}),
    skipTLSVerify: skip,
    authProvider,
    ...(authProvider === 'serviceAccount' && token ? { serviceAccountToken: token } : {}),
    ...(authProvider === 'serviceAccount' && tokenFile ? { serviceAccountTokenFile: tokenFile } : {}),
  };
}
