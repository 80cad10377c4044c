import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterConfig } from '../config/readDatabasesConfig';
import { errorTypeForStatus, KubeRequestError, type KubeStatus } from './KubeRequestError';

/** The Kubernetes identity a request acts as (sent as Impersonate-* headers). */
export interface Impersonation {
  user: string;
  groups: string[];
}

/** One call to kube-apiserver. */
export interface KubeRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Absolute API path, e.g. `/apis/dbaas.platform.dev/v1alpha1/databaseinstances`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
  /** Omitted: the backend's own identity. */
  as?: Impersonation;
  /**
   * Sending it twice changes nothing (default: GET only). Such a request is sent again at once
   * when a kept-alive connection turns out closed by the server as it was reused.
   */
  repeatable?: boolean;
}

/** What a line-oriented stream (watch) is told. */
export interface KubeStreamHandlers {
  onLine(line: string): void;
}

/**
 * Talks to one cluster's kube-apiserver with the backend's credentials. `@kubernetes/client-node`
 * turns the cluster config into TLS options and auth headers (as for any kubeconfig); the request
 * itself is plain `https` so the plugin controls impersonation headers, timeouts and streaming.
 */
export class KubeClusterClient {
  private readonly kc: KubeConfig;
  private readonly base: URL;
  private agent?: https.Agent;

  constructor(
    readonly cluster: ClusterConfig,
    private readonly timeoutMs: number,
  ) {
    this.base = new URL(cluster.url);
    this.kc = new KubeConfig();
    this.kc.loadFromOptions({
      clusters: [
        {
          name: cluster.name,
          server: cluster.url,
          caData: cluster.caData
            ? Buffer.from(cluster.caData).toString('base64')
            : undefined,
          skipTLSVerify: cluster.skipTLSVerify,
        },
      ],
      users: [
        {
          name: 'backstage',
          token:
            cluster.authProvider === 'serviceAccount'
              ? cluster.serviceAccountToken
              : undefined,
        },
      ],
      contexts: [{ name: 'default', cluster: cluster.name, user: 'backstage' }],
      currentContext: 'default',
    });
  }

  private async options(req: KubeRequest): Promise<https.RequestOptions> {
    const url = new URL(req.path, this.base);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    const headers: Record<string, string | string[]> = {
      Accept: 'application/json',
    };
    if (req.body !== undefined) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
    }
    if (req.as) {
      headers['Impersonate-User'] = req.as.user;
      if (req.as.groups.length > 0) headers['Impersonate-Group'] = req.as.groups;
    }
    const opts: https.RequestOptions = {
      method: req.method ?? 'GET',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      headers,
    };
    await this.kc.applyToHTTPSOptions(opts);
    // client-node makes a new agent, so a new TLS connection, per call; this cluster's TLS
    // material is fixed by the config, so one kept-alive agent serves all of them (idle 90 s,
    // as client-go). Proxy agents are left alone.
    if (opts.agent?.constructor === https.Agent) {
      this.agent ??= new https.Agent({
        ...(opts.agent as https.Agent & { options: https.AgentOptions }).options,
        keepAlive: true,
        timeout: 90_000,
        scheduling: 'lifo',
      });
      opts.agent = this.agent;
    }
    return opts;
  }

  private send(opts: https.RequestOptions, body: string | undefined, timeoutMs: number, repeatable: boolean, retried = false) {
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const mod = opts.protocol === 'http:' ? http : https;
      const req = mod.request(opts, resolve);
      req.setTimeout(timeoutMs, () => {
        req.destroy(
          new KubeRequestError(
            this.cluster.name,
            'TIMEOUT',
            `cluster ${this.cluster.name} did not answer within ${timeoutMs} ms`,
          ),
        );
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        // the server closed an idle connection as it was being reused (Node's documented race)
        if (repeatable && !retried && req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) {
          resolve(this.send(opts, body, timeoutMs, repeatable, true));
          return;
        }
        reject(
          e instanceof KubeRequestError
            ? e
            : new KubeRequestError(
                this.cluster.name,
                'UNREACHABLE',
                `cluster ${this.cluster.name} is unreachable: ${e.message}`,
              ),
        );
      });
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  private failure(code: number, text: string): KubeRequestError {
    let status: KubeStatus | undefined;
    try {
      status = JSON.parse(text);
    } catch {
      status = undefined;
    }
    const message =
      status?.kind === 'Status' && status.message
        ? status.message
        : `cluster ${this.cluster.name} answered ${code}: ${text.slice(0, 200)}`;
    return new KubeRequestError(this.cluster.name, errorTypeForStatus(code), message, code, status);
  }

  /** Sends one request and parses the JSON answer; a non-2xx answer throws {@link KubeRequestError}. */
  async request<T>(req: KubeRequest): Promise<T> {
    const opts = await this.options(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const res = await this.send(opts, body, this.timeoutMs, req.repeatable ?? (req.method ?? 'GET') === 'GET');
    const chunks: Buffer[] = [];
    const text = await new Promise<string>((resolve, reject) => {
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) throw this.failure(code, text);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new KubeRequestError(
        this.cluster.name,
        'BAD_RESPONSE',
        `cluster ${this.cluster.name} answered with invalid JSON`,
        code,
      );
    }
  }

  /**
   * Opens a streaming GET (a watch) and calls `onLine` per JSON line. Resolves when the server
   * ends the stream; rejects when it cannot be opened. `signal` aborts it.
   */
  async stream(req: KubeRequest, handlers: KubeStreamHandlers, signal: AbortSignal): Promise<void> {
    const opts = await this.options(req);
    opts.signal = signal;
    // Only the connect is bounded: a healthy watch stays open for minutes.
    const res = await this.send(opts, undefined, this.timeoutMs, true);
    res.setTimeout(0);
    res.socket?.setTimeout(0);
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw this.failure(code, Buffer.concat(chunks).toString('utf8'));
    }
    await new Promise<void>(resolve => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line) handlers.onLine(line);
          nl = buffer.indexOf('\n');
        }
      });
      res.on('end', () => resolve());
      res.on('close', () => resolve());
      res.on('error', () => resolve());
    });
  }
}
