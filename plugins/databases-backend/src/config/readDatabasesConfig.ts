import { readFileSync } from 'node:fs';
import type { Config } from '@backstage/config';

/** One cluster from `databases.clusters[]`, validated. */
export interface ClusterConfig {
  name: string;
  title?: string;
  url: string;
  /** PEM text, decoded when configured as base64. */
  caData?: string;
  skipTLSVerify: boolean;
  authProvider: 'serviceAccount' | 'none';
  serviceAccountToken?: string;
}

/** Everything the plugin reads from `databases`. */
export interface DatabasesConfig {
  clusters: ClusterConfig[];
  impersonation: { userPrefix: string; groupPrefix: string };
  requestTimeoutMs: number;
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function decodeCa(text: string): string {
  if (text.includes('-----BEGIN')) return text;
  // kubeconfig's certificate-authority-data is base64 of the PEM.
  return Buffer.from(text, 'base64').toString('utf8');
}

/**
 * Reads and validates `databases`. Throws one error listing every problem, each naming its key,
 * so a bad config stops the backend at start-up instead of failing per request.
 */
export function readDatabasesConfig(config: Config): DatabasesConfig {
  const problems: string[] = [];
  const clusters: ClusterConfig[] = [];
  const entries = config.getOptionalConfigArray('databases.clusters') ?? [];
  const seen = new Set<string>();
  entries.forEach((c, i) => {
    const key = `databases.clusters[${i}]`;
    const attempt = <T>(read: () => T): T | undefined => {
      try {
        return read();
      } catch (e) {
        problems.push(`${key}: ${(e as Error).message}`);
        return undefined;
      }
    };
    const name = attempt(() => c.getOptionalString('name'));
    const url = attempt(() => c.getOptionalString('url'));
    const authProvider = attempt(() => c.getOptionalString('authProvider'));
    const token = attempt(() => c.getOptionalString('serviceAccountToken'));
    const caDataRaw = attempt(() => c.getOptionalString('caData'));
    const caFile = attempt(() => c.getOptionalString('caFile'));
    const skip = attempt(() => c.getOptionalBoolean('skipTLSVerify')) ?? false;
    if (!name) problems.push(`${key}.name is required`);
    else if (!NAME.test(name))
      problems.push(`${key}.name "${name}" must be a DNS label (lowercase letters, digits, '-')`);
    else if (seen.has(name)) problems.push(`${key}.name "${name}" is used twice`);
    else seen.add(name);
    if (!url) problems.push(`${key}.url is required`);
    else {
      try {
        const parsed = new URL(url);
        if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
          problems.push(`${key}.url must be http(s), got "${url}"`);
      } catch {
        problems.push(`${key}.url "${url}" is not a URL`);
      }
    }
    if (authProvider !== 'serviceAccount' && authProvider !== 'none')
      problems.push(`${key}.authProvider must be "serviceAccount" or "none", got ${JSON.stringify(authProvider)}`);
    if (authProvider === 'serviceAccount' && !token)
      problems.push(`${key}.serviceAccountToken is required when authProvider is serviceAccount`);
    let caData = caDataRaw ? decodeCa(caDataRaw) : undefined;
    if (caFile) {
      try {
        caData = readFileSync(caFile, 'utf8');
      } catch (e) {
        problems.push(`${key}.caFile cannot be read: ${(e as Error).message}`);
      }
    }
    if (caData !== undefined && !caData.includes('-----BEGIN CERTIFICATE'))
      problems.push(`${key}.caData is neither a PEM certificate nor base64 of one`);
    if (name && url && (authProvider === 'serviceAccount' || authProvider === 'none')) {
      clusters.push({
        name,
        title: c.getOptionalString('title'),
        url: url.replace(/\/+$/, ''),
        caData,
        skipTLSVerify: skip,
        authProvider,
        serviceAccountToken: token,
      });
    }
  });
  let timeout = 10_000;
  try {
    timeout = config.getOptionalNumber('databases.requestTimeoutMs') ?? timeout;
    if (!(timeout > 0)) problems.push('databases.requestTimeoutMs must be a positive number');
  } catch (e) {
    problems.push(`databases.requestTimeoutMs: ${(e as Error).message}`);
  }
  const impersonation = { userPrefix: '', groupPrefix: '' };
  try {
    impersonation.userPrefix =
      config.getOptionalString('databases.impersonation.userPrefix') ?? '';
    impersonation.groupPrefix =
      config.getOptionalString('databases.impersonation.groupPrefix') ?? '';
  } catch (e) {
    problems.push(`databases.impersonation: ${(e as Error).message}`);
  }
  if (problems.length > 0) {
    throw new Error(`Invalid databases configuration: ${problems.join('; ')}`);
  }
  return { clusters, impersonation, requestTimeoutMs: timeout };
}
