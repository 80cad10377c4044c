import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { keepAliveAgentFor } from './keepAliveAgentFor';

/** A non-2xx answer from kube-apiserver, carrying its Status body when it sent one. */
export class KubeHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
  ) {
    super(
      (body &&
      typeof body === 'object' &&
      typeof (body as any).message === 'string'
        ? (body as any).message
        : undefined) ?? `kube-apiserver answered HTTP ${statusCode}`,
    );
    this.name = 'KubeHttpError';
  }
}

/** One JSON request to kube-apiserver. */
export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with query, e.g. `/api/v1/namespaces/kube-system/configmaps/x`. */
  path: string;
  body?: unknown;
  /** Content-Type of the body (default `application/json`; patches name their patch type). */
  contentType?: string;
  /** Accept header (default `application/json`), e.g. for PartialObjectMetadataList. */
  accept?: string;
  /** Aborts the request after this long (default 10 s, the delegated authn/authz client timeout). */
  timeoutMs?: number;
  /**
   * Sending it twice changes nothing (default: GET only; reviews say so). Such a request is sent
   * again at once when a kept-alive connection turns out closed by the server as it was reused.
   */
  repeatable?: boolean;
}

/**
 * Sends one JSON request with the KubeConfig's credentials and TLS settings and resolves the
 * parsed 2xx body. Used where the exact wire body matters (TokenReview, SubjectAccessReview)
 * or the type is generic (lists of any resource); generated clients re-serialise bodies.
 * Rejects with KubeHttpError on non-2xx and with the socket error (ECONNREFUSED, timeout) otherwise.
 */
export async function kubeRequest<T = any>(
  kc: KubeConfig,
  request: KubeRequest,
): Promise<T> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new Error('kubeconfig has no current cluster');
  }
  const url = new URL(cluster.server.replace(/\/$/, '') + request.path);
  const options: https.RequestOptions = {
    method: request.method,
    headers: { Accept: request.accept ?? 'application/json' },
  };
  await kc.applyToHTTPSOptions(options);
  // client-node makes a new agent (a new connection) per call; proxies keep theirs
  if (options.agent?.constructor === https.Agent) {
    options.agent = keepAliveAgentFor((options.agent as https.Agent & { options: https.AgentOptions }).options);
  }
  const payload =
    request.body === undefined
      ? undefined
      : Buffer.from(JSON.stringify(request.body));
  if (payload) {
    (options.headers as Record<string, string | number>)['Content-Type'] =
      request.contentType ?? 'application/json';
    (options.headers as Record<string, string | number>)['Content-Length'] =
      payload.length;
  }
  const transport = url.protocol === 'http:' ? http : https;
  const timeoutMs = request.timeoutMs ?? 10_000;
  const repeatable = request.repeatable ?? request.method === 'GET';
  const send = (retried: boolean) => new Promise<T>((resolve, reject) => {
    const req = transport.request(url, options, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // keep the raw text: kube-apiserver errors from proxies are sometimes plain text
        }
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) {
          resolve(body as T);
        } else {
          reject(new KubeHttpError(code, body));
        }
      });
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(
        new Error(`request to ${request.path} timed out after ${timeoutMs} ms`),
      ),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // the server closed an idle connection as it was being reused (Node's documented race)
      if (repeatable && !retried && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        resolve(send(true));
      } else {
        reject(err);
      }
    });
    req.end(payload);
  });
  return send(false);
}
