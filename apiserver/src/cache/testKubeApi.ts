// Test-only: a tiny fake kube-apiserver for informer tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject, ResourceType } from '../adapters/types';
import { resourcePath } from '../kube/resourcePath';
import { CRD_TYPE } from './crdServesKind';

/**
 * A tiny kube-apiserver: list and watch (JSON lines) of a few collections with one global
 * resourceVersion counter; a custom resource's collection answers 404 until its CRD exists.
 */
export class FakeKubeApi {
  readonly server: http.Server;
  readonly requests: string[] = [];
  private rv = 100;
  private readonly collections = new Map<string, Map<string, KubeObject>>();
  private readonly watchers = new Map<string, Set<http.ServerResponse>>();

  private readonly types: ResourceType[];

  /** `builtin` types are always served; `crdKinds` only while their CRD exists. */
  constructor(
    builtin: ResourceType[],
    private readonly crdKinds: ResourceType[],
  ) {
    this.types = [CRD_TYPE, ...builtin, ...crdKinds];
    for (const t of this.types) {
      this.collections.set(resourcePath(t), new Map());
    }
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  watching(type: ResourceType): number {
    return this.watchers.get(resourcePath(type))?.size ?? 0;
  }

  put(type: ResourceType, o: KubeObject): string {
    const rv = String(++this.rv);
    const stored = { ...o, metadata: { ...o.metadata, resourceVersion: rv } };
    const coll = this.collections.get(resourcePath(type))!;
    const key = `${o.metadata!.namespace ?? ''}/${o.metadata!.name}`;
    const eventType = coll.has(key) ? 'MODIFIED' : 'ADDED';
    coll.set(key, stored);
    this.notify(type, eventType, stored);
    return rv;
  }

  remove(type: ResourceType, o: KubeObject): string {
    const rv = String(++this.rv);
    const coll = this.collections.get(resourcePath(type))!;
    const key = `${o.metadata!.namespace ?? ''}/${o.metadata!.name}`;
    const old = coll.get(key)!;
    coll.delete(key);
    this.notify(type, 'DELETED', {
      ...old,
      metadata: { ...old.metadata, resourceVersion: rv },
    });
    return rv;
  }

  private notify(type: ResourceType, eventType: string, object: KubeObject) {
    for (const res of this.watchers.get(resourcePath(type)) ?? []) {
      res.write(`${JSON.stringify({ type: eventType, object })}\n`);
    }
  }

  private served(path: string): boolean {
    const type = this.types.find(t => resourcePath(t) === path);
    if (!type || !this.crdKinds.includes(type)) {
      return !!type;
    }
    return this.collections
      .get(resourcePath(CRD_TYPE))!
      .has(`/${type.plural}.${type.group}`);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, 'http://x');
    this.requests.push(
      `${req.method} ${url.pathname}${url.searchParams.get('watch') ? '?watch' : ''}`,
    );
    res.setHeader('Content-Type', 'application/json');
    if (!this.served(url.pathname)) {
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'NotFound',
          code: 404,
          message: 'the server could not find the requested resource',
        }),
      );
      return;
    }
    if (url.searchParams.get('watch')) {
      res.writeHead(200);
      res.flushHeaders();
      let set = this.watchers.get(url.pathname);
      if (!set) {
        set = new Set();
        this.watchers.set(url.pathname, set);
      }
      set.add(res);
      req.on('close', () => set!.delete(res));
      return;
    }
    const items = [...this.collections.get(url.pathname)!.values()];
    res.end(
      JSON.stringify({
        kind: 'List',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(this.rv) },
        items,
      }),
    );
  }
}

/** Polls `check` every 10 ms until true; throws naming `what` after the timeout. */
export async function until(
  check: () => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise(r => setTimeout(r, 10));
  }
}
