import { adapters as allAdapters } from '../adapters/registry';
import type { OperatorAdapter } from '../adapters/types';
import { loadEngineConfig } from '../engines/loadEngineConfig';
import type { Options } from './Options';

/**
 * Every problem with the options, each naming its flag; empty when `main` may start. Files
 * whose content decides what is served (`--engine-config`) are read and checked here too, so a
 * bad one stops the process before it opens a port.
 */
export function validateOptions(
  o: Options,
  deps: {
    adapters?: readonly OperatorAdapter[];
    readFile?: (file: string) => string;
  } = {},
): string[] {
  const problems: string[] = [];
  const intIn = (flag: string, v: number, min: number, max: number) => {
    if (!Number.isInteger(v) || v < min || v > max) {
      problems.push(
        `--${flag}: must be an integer from ${min} to ${max}, got ${v}`,
      );
    }
  };
  intIn('secure-port', o.securePort, 0, 65535);
  intIn(
    'authentication-config-refresh-seconds',
    o.authenticationConfigRefreshSeconds,
    1,
    60,
  );
  intIn(
    'authentication-token-webhook-cache-ttl-seconds',
    o.authenticationCacheTtlSeconds,
    0,
    3600,
  );
  intIn(
    'authorization-webhook-cache-ttl-seconds',
    o.authorizationCacheTtlSeconds,
    0,
    3600,
  );
  intIn('watch-history-size', o.watchHistorySize, 100, 10_000_000);
  // etcd compacts after 5 minutes; clients expect watches from that far back to resume.
  intIn('watch-history-seconds', o.watchHistorySeconds, 300, 86_400);
  if (o.heapSettleIntervalSeconds !== 0) intIn('heap-settle-interval-seconds', o.heapSettleIntervalSeconds, 60, 86_400);
  intIn('max-requests-inflight', o.maxRequestsInflight, 0, 1_000_000);
  intIn('max-mutating-requests-inflight', o.maxMutatingRequestsInflight, 0, 1_000_000);
  intIn('read-header-timeout-seconds', o.readHeaderTimeoutSeconds, 0, 3600);
  intIn('read-timeout-seconds', o.readTimeoutSeconds, 0, 3600);
  intIn('tls-handshake-timeout-seconds', o.tlsHandshakeTimeoutSeconds, 0, 3600);
  // the headers are part of the request: a longer header bound would never apply (Node refuses it)
  if (o.readTimeoutSeconds > 0 && o.readHeaderTimeoutSeconds > o.readTimeoutSeconds) {
    problems.push(
      `--read-header-timeout-seconds: must not exceed --read-timeout-seconds (${o.readTimeoutSeconds}), got ${o.readHeaderTimeoutSeconds}`,
    );
  }
  if (!o.bindAddress) {
    problems.push('--bind-address: must not be empty');
  }
  if (!o.tlsCertFile && !o.tlsKeyFile) {
    // Serving certs are the deployment's job (cert-manager or the chart); no self-signed fallback.
    problems.push('--tls-cert-file and --tls-private-key-file: required (the serving certificate, PEM)');
  } else if (!!o.tlsCertFile !== !!o.tlsKeyFile) {
    problems.push(
      o.tlsCertFile
        ? '--tls-private-key-file: required when --tls-cert-file is set'
        : '--tls-cert-file: required when --tls-private-key-file is set',
    );
  }
  if (
    o.authenticationSkipLookup &&
    !o.requestheader.clientCaFile &&
    !o.clientCaFile
  ) {
    problems.push(
      '--authentication-skip-lookup: needs --requestheader-client-ca-file or --client-ca-file, or no client could authenticate except by token',
    );
  }
  if (
    o.policyConfigMap !== undefined &&
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/.test(o.policyConfigMap)
  ) {
    problems.push(
      `--policy-configmap: must be <namespace>/<name>, got ${JSON.stringify(o.policyConfigMap)}`,
    );
  }
  if (o.engineConfig === '') {
    problems.push('--engine-config: must name a file');
  } else if (o.engineConfig !== undefined) {
    const loaded = loadEngineConfig(o.engineConfig, deps.adapters ?? allAdapters, deps.readFile);
    if ('errors' in loaded) problems.push(...loaded.errors.map(e => `--engine-config: ${e}`));
  }
  return problems;
}
