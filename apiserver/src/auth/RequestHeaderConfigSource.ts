import type { KubeConfig } from '@kubernetes/client-node';
import { KubeHttpError, kubeRequest } from '../kube/kubeRequest';
import {
  AUTHENTICATION_CONFIGMAP_NAME,
  AUTHENTICATION_CONFIGMAP_NAMESPACE,
  parseRequestHeaderConfig,
  type RequestHeaderConfig,
  type RequestHeaderOverrides,
} from './RequestHeaderConfig';

/** Where the authenticator gets the current trust settings from. */
export interface RequestHeaderConfigProvider {
  /** Current settings, or undefined while they have never been loaded. */
  current(): RequestHeaderConfig | undefined;
}

/** A fixed configuration (flags only, or tests). */
export class StaticRequestHeaderConfig implements RequestHeaderConfigProvider {
  constructor(private readonly config: RequestHeaderConfig) {}
  current(): RequestHeaderConfig {
    return this.config;
  }
}

/** Reads the ConfigMap's data; resolves undefined when it does not exist. */
export type ConfigMapReader = () => Promise<Record<string, string> | undefined>;

/** Reads `kube-system/extension-apiserver-authentication` with the apiserver's own credentials. */
export function kubeConfigMapReader(kc: KubeConfig): ConfigMapReader {
  return async () => {
    try {
      const cm = await kubeRequest(kc, {
        method: 'GET',
        path: `/api/v1/namespaces/${AUTHENTICATION_CONFIGMAP_NAMESPACE}/configmaps/${AUTHENTICATION_CONFIGMAP_NAME}`,
      });
      return (cm?.data ?? {}) as Record<string, string>;
    } catch (err) {
      // A cluster without a front proxy or client CA has no such ConfigMap: nothing to trust.
      if (err instanceof KubeHttpError && err.statusCode === 404) {
        return undefined;
      }
      throw err;
    }
  };
}

export interface RequestHeaderConfigSourceOptions {
  read: ConfigMapReader;
  overrides?: RequestHeaderOverrides;
  /** Re-read period; kube-apiserver re-syncs the ConfigMap every minute, CAs rotate (≤ 60 s). */
  refreshIntervalMs?: number;
  logger?: {
    info(msg: string, meta?: object): void;
    warn(msg: string, meta?: object): void;
  };
}

/**
 * Keeps the front-proxy/client-CA trust settings current by re-reading the ConfigMap
 * periodically (contract §2.2). Until the first successful read `current()` is undefined, so
 * the authenticator refuses to serve rather than treating proxied requests as anonymous;
 * after that a failed re-read keeps the last good settings and is reported by `problems()`.
 */
export class RequestHeaderConfigSource implements RequestHeaderConfigProvider {
  private config: RequestHeaderConfig | undefined;
  private fingerprint = '';
  private problem: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<(c: RequestHeaderConfig) => void> = [];

  constructor(private readonly options: RequestHeaderConfigSourceOptions) {}

  current(): RequestHeaderConfig | undefined {
    return this.config;
  }

  /** Called after each change of the settings (e.g. to rebuild the TLS context's CA list). */
  onChange(listener: (config: RequestHeaderConfig) => void): void {
    this.listeners.push(listener);
  }

  /** Reads once; resolves true on success. Errors are kept for `problems()`, never thrown. */
  async refresh(): Promise<boolean> {
    try {
      const data = await this.options.read();
      const config = parseRequestHeaderConfig(data, this.options.overrides);
      const fingerprint = JSON.stringify({
        ...config,
        requestHeaderCAs: config.requestHeaderCAs.map(c => c.fingerprint256),
        clientCAs: config.clientCAs.map(c => c.fingerprint256),
      });
      this.problem = undefined;
      if (fingerprint !== this.fingerprint) {
        this.fingerprint = fingerprint;
        this.config = config;
        this.options.logger?.info('Authentication configuration loaded', {
          requestHeaderCAs: config.requestHeaderCAs.length,
          allowedNames: config.allowedNames,
          clientCAs: config.clientCAs.length,
        });
        this.listeners.forEach(l => l(config));
      }
      return true;
    } catch (err) {
      const message = `cannot load ${AUTHENTICATION_CONFIGMAP_NAMESPACE}/${AUTHENTICATION_CONFIGMAP_NAME}: ${(err as Error)?.message ?? err}`;
      if (message !== this.problem) {
        this.options.logger?.warn('Authentication configuration not loaded', {
          error: message,
        });
      }
      this.problem = message;
      return false;
    }
  }

  /** First read, then periodic re-reads until `stop()`. Resolves after the first attempt. */
  async start(): Promise<boolean> {
    const ok = await this.refresh();
    this.stop();
    this.timer = setInterval(
      () => void this.refresh(),
      this.options.refreshIntervalMs ?? 30_000,
    );
    this.timer.unref();
    return ok;
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** For /readyz: empty once loaded and the last re-read succeeded. */
  problems(): string[] {
    if (this.problem) {
      return [this.problem];
    }
    return this.config ? [] : ['authentication configuration not loaded yet'];
  }
}
