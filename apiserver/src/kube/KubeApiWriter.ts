import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject, ResourceType } from '../adapters/types';
import type { KubeDeleteOptions, KubeWriter } from './KubeWriter';
import { KubeHttpError, kubeRequest } from './kubeRequest';
import { resourcePath } from './resourcePath';

/** Options of {@link KubeApiWriter}. */
export interface KubeApiWriterOptions {
  /**
   * Per-call timeout. Short on purpose: a write the client waits for must fail with a 503
   * (and Retry-After) rather than hang when kube-apiserver is unreachable. Default 5 s.
   */
  timeoutMs?: number;
}

const objectPath = (type: ResourceType, namespace: string, name: string) =>
  `${resourcePath(type, namespace || undefined)}/${encodeURIComponent(name)}`;

/** {@link KubeWriter} over kube-apiserver's REST API with the KubeConfig's credentials. */
export class KubeApiWriter implements KubeWriter {
  private readonly timeoutMs: number;

  constructor(
    private readonly kc: KubeConfig,
    options: KubeApiWriterOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  create(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
    return kubeRequest(this.kc, {
      method: 'POST',
      path: resourcePath(type, obj.metadata?.namespace),
      body: obj,
      timeoutMs: this.timeoutMs,
    });
  }

  mergePatch(type: ResourceType, namespace: string, name: string, patch: unknown, subresource?: 'status'): Promise<KubeObject> {
    return kubeRequest(this.kc, {
      method: 'PATCH',
      path: `${objectPath(type, namespace, name)}${subresource ? `/${subresource}` : ''}`,
      body: patch,
      contentType: 'application/merge-patch+json',
      timeoutMs: this.timeoutMs,
    });
  }

  async delete(
    type: ResourceType,
    namespace: string,
    name: string,
    options: KubeDeleteOptions = {},
  ): Promise<KubeObject | undefined> {
    const body = await kubeRequest<KubeObject>(this.kc, {
      method: 'DELETE',
      path: objectPath(type, namespace, name),
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...options },
      timeoutMs: this.timeoutMs,
    });
    return body && body.kind !== 'Status' ? body : undefined;
  }

  async list(type: ResourceType, namespace: string, labels: Record<string, string>, limit: number): Promise<KubeObject[]> {
    const selector = Object.entries(labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const query = new URLSearchParams({ labelSelector: selector, limit: String(limit) });
    const body = await kubeRequest<{ items?: KubeObject[] }>(this.kc, {
      method: 'GET',
      path: `${resourcePath(type, namespace)}?${query}`,
      timeoutMs: this.timeoutMs,
    });
    return body?.items ?? [];
  }

  async get(type: ResourceType, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      return await kubeRequest<KubeObject>(this.kc, {
        method: 'GET',
        path: objectPath(type, namespace, name),
        timeoutMs: this.timeoutMs,
      });
    } catch (err) {
      if (err instanceof KubeHttpError && err.statusCode === 404) return undefined;
      throw err;
    }
  }
}
