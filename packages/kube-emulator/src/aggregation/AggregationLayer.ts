import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AggregationProxy, RequestInfo, UserInfo } from '../api/types';
import type { PemKeyPair } from '../certs/types';
import type { ObjectStore, StoreEvent, StoredObject } from '../store/types';
import {
  APISERVICES,
  apiServiceSpec,
  availableCondition,
  SERVICES,
} from './apiService';
import { apiServiceNameForPath } from './apiServiceNameForPath';
import { AggregatedOpenApi } from './AggregatedOpenApi';
import { backendGet } from './backendGet';
import { backendTlsOptions } from './backendTls';
import { BackendConnections } from './BackendConnections';
import { forwardToBackend, isDiscoveryPath, writePlain } from './forwardToBackend';
import { DiscoveryGroup, discoveryGroups } from './discoveryGroups';
import { evaluateAvailability } from './evaluateAvailability';
import { hostPort } from './hostPort';
import { buildProxyHeaders, encodeQueryLikeGo } from './proxyHeaders';
import { resolveServiceTarget, ServiceTarget } from './resolveServiceTarget';
import { writeAvailableCondition } from './writeAvailableCondition';

export { apiServiceNameForPath } from './apiServiceNameForPath';

/** kube-apiserver's `aggregatedDiscoveryTimeout` and availability-probe client timeout. */
export const DISCOVERY_TIMEOUT_MS = 5000;
/** How often every APIService is re-checked (kube: the 30 s informer resync). */
export const DEFAULT_RESYNC_INTERVAL_MS = 30_000;
/** Options of {@link AggregationLayer}. */
export interface AggregationLayerOptions {
  store: ObjectStore;
  /** The front-proxy client certificate (CN front-proxy-client) presented to every extension. */
  frontProxyClient: PemKeyPair;
  resyncIntervalMs?: number;
  discoveryTimeoutMs?: number;
  /** Logger for problems that have no caller to report to (probe and status-write failures). */
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * kube-apiserver's aggregation layer (kube-aggregator) for the emulator. It follows
 * `apiregistration.k8s.io/v1` APIServices in the store; requests under `/apis/<group>/<version>`
 * of an APIService with `spec.service` (and its `/openapi/v3/apis/<group>/<version>` document)
 * are proxied over TLS to the Service (see `resolveServiceTarget` for how a Service becomes an
 * address here) with the front-proxy client certificate and `X-Remote-*` identity headers, over
 * one pooled HTTP/2 connection when the extension offers `h2`, as kube-aggregator dials.
 * An availability controller probes `GET /apis/<group>/<version>` as `system:kube-aggregator`
 * and writes `status.conditions[Available]`; while that is not True requests get `503`
 * `service unavailable`, as kube-apiserver answers them.
 *
 * Call {@link AggregationLayer.start} once the store has the `apiservices` and `services`
 * resources, and {@link AggregationLayer.stop} on shutdown.
 */
export class AggregationLayer implements AggregationProxy {
  private readonly store: ObjectStore;
  private readonly frontProxy: PemKeyPair;
  private readonly resyncIntervalMs: number;
  private readonly discoveryTimeoutMs: number;
  private readonly log: (
    message: string,
    fields?: Record<string, unknown>,
  ) => void;
  private readonly apiServices = new Map<string, StoredObject>();
  private readonly openApi: AggregatedOpenApi;
  private readonly running = new Map<string, Promise<void>>();
  private readonly queued = new Map<string, Promise<void>>();
  private watch?: { stop(): void };
  private timer?: NodeJS.Timeout;
  private stopped = false;
  /** Pooled HTTP/2 connections to the extension servers (a new pool after each start). */
  private connections = new BackendConnections();

  constructor(options: AggregationLayerOptions) {
    this.store = options.store;
    this.frontProxy = options.frontProxyClient;
    this.resyncIntervalMs =
      options.resyncIntervalMs ?? DEFAULT_RESYNC_INTERVAL_MS;
    this.discoveryTimeoutMs =
      options.discoveryTimeoutMs ?? DISCOVERY_TIMEOUT_MS;
    this.log = options.log ?? (() => {});
    this.openApi = new AggregatedOpenApi(this.log);
  }

  /** Loads the APIServices, follows store changes and starts the periodic availability checks. */
  start(): void {
    if (this.watch) return;
    this.stopped = false;
    this.connections = new BackendConnections();
    for (const obj of this.safeList())
      this.apiServices.set(obj.metadata.name, obj);
    this.watch = this.store.watch(this.store.currentRV(), e => this.onEvent(e));
    for (const name of this.apiServices.keys())
      void this.checkAvailability(name);
    this.timer = setInterval(() => {
      for (const name of this.apiServices.keys())
        void this.checkAvailability(name);
    }, this.resyncIntervalMs);
    this.timer.unref();
  }

  /** Stops watching and probing, and waits for checks in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.watch?.stop();
    this.watch = undefined;
    if (this.timer) clearInterval(this.timer);
    this.connections.closeAll();
    await Promise.allSettled([
      ...this.running.values(),
      ...this.queued.values(),
    ]);
  }

  /**
   * Runs the availability check of one APIService (or all) now and resolves once the resulting
   * condition is written; a check already running is followed by a fresh one.
   */
  checkAvailability(name?: string): Promise<void> {
    if (name === undefined) {
      return Promise.all(
        [...this.apiServices.keys()].map(n => this.checkAvailability(n)),
      ).then(() => undefined);
    }
    return this.queued.get(name) ?? this.enqueueCheck(name);
  }

  private enqueueCheck(name: string): Promise<void> {
    const previous = this.running.get(name) ?? Promise.resolve();
    const next = previous.then(async () => {
      this.queued.delete(name);
      this.running.set(name, next);
      try {
        await this.runCheck(name);
      } catch (e) {
        this.log('APIService availability check failed', {
          apiService: name,
          error: (e as Error).message,
        });
      } finally {
        if (this.running.get(name) === next) this.running.delete(name);
      }
    });
    this.queued.set(name, next);
    return next;
  }

  handles(info: RequestInfo): boolean {
    const name = apiServiceNameForPath(info.path);
    return (
      name !== undefined && !!apiServiceSpec(this.apiServices.get(name)).service
    );
  }

  groups(): DiscoveryGroup[] {
    return discoveryGroups(
      [...this.apiServices.values()].filter(o => !!apiServiceSpec(o).service),
    );
  }

  openapiV3Paths(): Record<string, { serverRelativeURL: string }> {
    return this.openApi.v3Paths(name => this.isAvailable(name));
  }

  /**
   * kube-apiserver's merged `/openapi/v2` contribution of available APIServices: only paths under
   * `/apis/<group>/<version>/` and the definitions they use (as its OpenAPI aggregator keeps).
   */
  openapiV2Spec(): { paths: Record<string, unknown>; definitions: Record<string, unknown> } {
    return this.openApi.v2Spec(name => this.isAvailable(name));
  }

  private isAvailable(name: string): boolean {
    return availableCondition(this.apiServices.get(name))?.status === 'True';
  }

  async proxy(
    req: IncomingMessage,
    res: ServerResponse,
    user: UserInfo,
    body: Buffer | undefined,
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const rawPath = (req.url ?? '/').split('?')[0];
    const name = apiServiceNameForPath(url.pathname);
    const apiService = name ? this.apiServices.get(name) : undefined;
    if (!apiService || availableCondition(apiService)?.status !== 'True') {
      writePlain(res, 503, 'service unavailable\n');
      return;
    }
    const spec = apiServiceSpec(apiService);
    const target = this.resolve(spec);
    if (!target.ok) {
      writePlain(res, 503, 'service unavailable\n');
      return;
    }
    const headers = buildProxyHeaders(req, user);
    if (body !== undefined) headers['content-length'] = String(body.length);
    // a body still to stream keeps its framing: Node's client sends a DELETE's unframed otherwise
    else if (req.headers['content-length'] !== undefined) headers['content-length'] = req.headers['content-length'];
    else if (req.headers['transfer-encoding'] !== undefined) headers['transfer-encoding'] = 'chunked';
    const path = rawPath + encodeQueryLikeGo(url.search);
    const tlsOptions = backendTlsOptions(spec, target.serverName, this.frontProxy);
    await forwardToBackend({
      req,
      res,
      body,
      headers,
      path,
      target,
      tls: tlsOptions,
      connections: this.connections,
      discoveryTimeoutMs: isDiscoveryPath(url.pathname) ? this.discoveryTimeoutMs : undefined,
    });
  }

  private safeList(): StoredObject[] {
    try {
      return this.store.list(APISERVICES);
    } catch (e) {
      this.log('Cannot list APIServices', { error: (e as Error).message });
      return [];
    }
  }

  private onEvent(e: StoreEvent): void {
    const { group, plural } = e.resource;
    if (group === APISERVICES.group && plural === APISERVICES.plural) {
      const name = e.object.metadata.name;
      if (e.type === 'DELETED') {
        this.apiServices.delete(name);
        this.openApi.forget(name);
        return;
      }
      const before = this.apiServices.get(name);
      this.apiServices.set(name, e.object);
      // our own status writes come back as MODIFIED events: only spec changes need a new check
      if (
        !before ||
        JSON.stringify(before.spec) !== JSON.stringify(e.object.spec)
      )
        void this.checkAvailability(name);
      return;
    }
    if (group === SERVICES.group && plural === SERVICES.plural) {
      const { name, namespace } = e.object.metadata;
      for (const [apiName, obj] of this.apiServices) {
        const ref = apiServiceSpec(obj).service;
        if (ref && ref.name === name && ref.namespace === namespace)
          void this.checkAvailability(apiName);
      }
    }
  }

  private resolve(spec: ReturnType<typeof apiServiceSpec>): ServiceTarget {
    const ref = spec.service!;
    let service: StoredObject | undefined;
    try {
      service = this.store.get(SERVICES, ref.namespace, ref.name ?? '');
    } catch (e) {
      return {
        ok: false,
        reason: 'ServiceResolveError',
        message: (e as Error).message,
      };
    }
    if (!service) {
      return {
        ok: false,
        reason: 'ServiceResolveError',
        message: `service/${ref.name} in "${ref.namespace}" is not present`,
      };
    }
    return resolveServiceTarget(spec, service);
  }


  private async runCheck(name: string): Promise<void> {
    const obj = this.apiServices.get(name);
    if (!obj || this.stopped) return;
    const condition = await evaluateAvailability(obj, {
      store: this.store,
      frontProxy: this.frontProxy,
      discoveryTimeoutMs: this.discoveryTimeoutMs,
    });
    if (this.stopped) return;
    const stored = writeAvailableCondition(this.store, name, condition, this.log);
    if (stored) this.apiServices.set(name, stored);
    if (condition.status === 'True' && apiServiceSpec(obj).service)
      await this.refreshOpenApi(name);
    else {
      this.openApi.forget(name);
    }
  }

  private async refreshOpenApi(name: string): Promise<void> {
    const spec = apiServiceSpec(this.apiServices.get(name));
    const target = this.resolve(spec);
    if (!target.ok) return;
    // kube-apiserver downloads OpenAPI as system:aggregator with no groups
    await this.openApi.refresh(name, spec, path =>
      backendGet(`https://${hostPort(target.host, target.port)}${path}`, {
        ...backendTlsOptions(spec, target.serverName, this.frontProxy),
        headers: { 'X-Remote-User': 'system:aggregator', Accept: 'application/json' },
        timeoutMs: 60_000,
      }),
    );
  }
}
