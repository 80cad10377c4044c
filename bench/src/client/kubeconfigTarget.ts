import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { HttpsClientOptions } from './HttpsClient';

function dataOrFile(data?: string, file?: string): string | undefined {
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  return file ? readFileSync(file, 'utf8') : undefined;
}

/**
 * How to reach the cluster of the current context of a kubeconfig file: server, CA, and a client
 * certificate or bearer token. Exec and auth-provider plugins are not supported (use a token).
 */
export function kubeconfigTarget(file: string): HttpsClientOptions {
  const kc = YAML.parse(readFileSync(file, 'utf8'));
  const ctxName = kc['current-context'];
  const ctx = (kc.contexts ?? []).find((c: any) => c.name === ctxName)?.context;
  if (!ctx) throw new Error(`${file}: no current context`);
  const cluster = (kc.clusters ?? []).find((c: any) => c.name === ctx.cluster)?.cluster;
  const user = (kc.users ?? []).find((u: any) => u.name === ctx.user)?.user ?? {};
  if (!cluster?.server) throw new Error(`${file}: context ${ctxName} has no cluster server`);
  return {
    baseUrl: cluster.server,
    ca: dataOrFile(cluster['certificate-authority-data'], cluster['certificate-authority']) ?? '',
    cert: dataOrFile(user['client-certificate-data'], user['client-certificate']),
    key: dataOrFile(user['client-key-data'], user['client-key']),
    headers: user.token ? { Authorization: `Bearer ${user.token}` } : {},
    // kubectl offers h2; kube-apiserver takes it
    protocol: 'negotiate',
  };
}
