import http from 'node:http';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterConfig } from '../config/readDatabasesConfig';
import { errorTypeForStatus, KubeRequestError, type KubeStatus } from './KubeRequestError';
import { ClusterCredentials, type CurrentCredentials } from './ClusterCredentials';
import { ClusterReachability } from './ClusterReachability';
import { transportError } from './transportError';

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
  /**
   * Sent even while the cluster is known not to answer: the watch's requests, which are how the
   * backend finds out that it answers again. Any other request then fails at once.
   */
  probe?: boolean;
  /** Aborts the request (a watcher that stops does not wait for its list). */
  signal?: AbortSignal;
  /**
   * Receives the texts of the answer's `Warning` headers (RFC 7234, as kube-apiserver and the
   * aggregated apiserver send them: `299 - "text"`), e.g. that deleting a backup keeps its data.
   */
  warnings?: string[];
}

/** What a line-oriented stream (watch) is told. */
export interface KubeStreamHandlers {
  onLine(line: string): void;
  /** The server accepted the stream (a 2xx): it is open. */
  onOpen?(): void;
}

/**
 * Talks to one cluster's kube-apiserver with the backend's credentials. `@kubernetes/client-node`
 * turns the cluster config and the current credentials into TLS options and auth headers (as for
 * any kubeconfig); the request itself is plain `https` so the plugin controls impersonation
 * headers, timeouts and streaming. Every outcome feeds {@link reachability}.
 */
export class KubeClusterClient {
  readonly reachability: ClusterReachability;
  private readonly credentials: ClusterCredentials;
  private readonly base: URL;
  private configured?: CurrentCredentials & { kc: KubeConfig };
  private agent?: https.Agent;

  constructor(
    readonly cluster: ClusterConfig,
    private readonly timeoutMs: number,
  ) {
    this.base = new URL(cluster.url);
    this.credentials = new ClusterCredentials(cluster);
    this.reachability = new ClusterReachability(cluster.name);
  }

  /** A KubeConfig for the current token and CA, made again when either changed. */
  private kubeConfig(current: CurrentCredentials): KubeConfig {
    if (this.configured && this.configured.token === current.token && this.configured.ca === current.ca) return this.configured.kc;
    // another CA: new connections; those open stay until they close (a watch is not cut)
    if (this.configured && this.configured.ca !== current.ca) this.agent = undefined;
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: this.cluster.name,
          server: this.cluster.url,
          caData: current.ca ? Buffer.from(current.ca).toString('base64') : undefined,
          skipTLSVerify: this.cluster.skipTLSVerify,
        },
      ],
      users: [{ name: 'backstage', token: current.token }],
      contexts: [{ name: 'default', cluster: this.cluster.name, user: 'backstage' }],
      currentContext: 'default',
    });
    this.configured = { ...current, kc };
    return kc;
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
    await this.kubeConfig(await this.credentials.current()).applyToHTTPSOptions(opts);
    // client-node makes a new agent, so a new TLS connection, per call; one kept-alive agent per
    // TLS material serves all of them (idle 90 s, as client-go). Proxy agents are left alone.
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

  private timeoutError(): KubeRequestError {
    return new KubeRequestError(this.cluster.name, 'TIMEOUT', `cluster ${this.cluster.name} did not answer within ${this.timeoutMs} ms`);
  }

  /**
   * Sends one request and resolves with the response once its headers came, or rejects at
   * `deadline`. The deadline is a timer of its own, not the socket's idle timeout: Node does not
   * fire that while a write is pending, and over TLS the request waits as a pending write for a
   * handshake that a hung server never completes, so an idle timeout of N ms fired after 2N.
   */
  private send(opts: https.RequestOptions, body: string | undefined, deadline: number, repeatable: boolean, retried = false) {
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const mod = opts.protocol === 'http:' ? http : https;
      let timer: NodeJS.Timeout | undefined = undefined;
      const req = mod.request(opts, res => {
        clearTimeout(timer);
        resolve(res);
      });
      timer = setTimeout(() => req.destroy(this.timeoutError()), Math.max(0, deadline - Date.now()));
      req.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // the server closed an idle connection as it was being reused (Node's documented race)
        if (repeatable && !retried && req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) {
          resolve(this.send(opts, body, deadline, repeatable, true));
          return;
        }
        reject(e instanceof KubeRequestError ? e : transportError(this.cluster.name, e));
      });
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  /** The body of `res`, read by `deadline`. */
  private readBody(res: http.IncomingMessage, deadline: number): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => res.destroy(this.timeoutError()), Math.max(0, deadline - Date.now()));
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      res.on('error', e => {
        clearTimeout(timer);
        reject(e instanceof KubeRequestError ? e : transportError(this.cluster.name, e));
      });
    });
  }

  /**
   * A non-2xx answer as an error. 401 is always the backend's own credentials (the user is never
   * authenticated by the cluster, only impersonated); so is a 403 refusing the impersonation
   * itself (kube-apiserver: `users "…" is forbidden: User "…" cannot impersonate resource …`).
   * Any other 403 is the user's own RBAC and stays theirs.
   */
  private failure(code: number, text: string, impersonating: boolean): KubeRequestError {
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
    const rejected = `the backend's credentials for cluster ${this.cluster.name} were rejected`;
    if (code === 401) {
      return new KubeRequestError(this.cluster.name, 'UNAUTHORIZED', `${rejected}: ${message}`, code, status, { backendCredentials: true });
    }
    if (code === 403 && impersonating && /cannot impersonate/.test(message)) {
      return new KubeRequestError(this.cluster.name, 'FORBIDDEN', `${rejected}: it may not impersonate: ${message}`, code, status, {
        backendCredentials: true,
      });
    }
    return new KubeRequestError(this.cluster.name, errorTypeForStatus(code), message, code, status);
  }

  /** Sends `req` unless the cluster is known not to answer; records whether it answered. */
  private async exchange(req: KubeRequest, readBody: boolean, signal = req.signal) {
    if (!req.probe) {
      const silent = this.reachability.silent();
      if (silent) throw silent;
    }
    const opts = await this.options(req);
    if (signal) opts.signal = signal;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const sentAt = Date.now();
    const deadline = sentAt + this.timeoutMs;
    try {
      const res = await this.send(opts, body, deadline, req.repeatable ?? (req.method ?? 'GET') === 'GET');
      this.reachability.answered();
      return { res, text: readBody ? await this.readBody(res, deadline) : undefined };
    } catch (e) {
      if (e instanceof KubeRequestError && e.unanswered && !signal?.aborted) this.reachability.unanswered(sentAt, e);
      throw e;
    }
  }

  /** Sends one request and parses the JSON answer; a non-2xx answer throws {@link KubeRequestError}. */
  async request<T>(req: KubeRequest): Promise<T> {
    let { res, text } = await this.exchange(req, true);
    // a token file rotated under a rewrite that kept its stat: read it again and resend once (a
    // 401 was not acted on, so resending even a write is safe)
    if (res.statusCode === 401 && this.credentials.fromFiles && (await this.credentials.refresh())) {
      ({ res, text } = await this.exchange(req, true));
    }
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) throw this.failure(code, text!, req.as !== undefined);
    if (req.warnings) req.warnings.push(...warningTexts(res));
    try {
      return JSON.parse(text!) as T;
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
    // Only the opening is bounded: a healthy watch stays open for minutes.
    const { res } = await this.exchange(req, false, signal);
    res.setTimeout(0);
    res.socket?.setTimeout(0);
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw this.failure(code, Buffer.concat(chunks).toString('utf8'), req.as !== undefined);
    }
    handlers.onOpen?.();
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

/** The texts of a response's `Warning` headers (`299 - "text"`), unquoted; others as sent. */
export function warningTexts(res: http.IncomingMessage): string[] {
  const values = res.headersDistinct?.warning ?? [];
  return values.flatMap(v => {
    // several warnings may share one header line, comma-separated between quoted texts
    const quoted = [...v.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map(m => m[1].replace(/\\(.)/g, '$1'));
    // the apiserver writes non-Latin-1 as UTF-8 bytes (as Go does): Node read them as Latin-1
    return (quoted.length ? quoted : [v]).map(t => Buffer.from(t, 'latin1').toString('utf8'));
  });
}
