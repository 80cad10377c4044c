import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The apiserver's Prometheus series, in their own registry (no global state between instances). */
export interface ApiserverMetrics {
  registry: Registry;
  /** `databases_apiserver_request_total{verb,resource,subresource,code}` */
  requests: Counter<'verb' | 'resource' | 'subresource' | 'code'>;
  /** `databases_apiserver_request_duration_seconds{verb,resource,subresource}` (watches excluded). */
  requestDuration: Histogram<'verb' | 'resource' | 'subresource'>;
  /** `databases_apiserver_watchers` open watch streams. */
  watchers: Gauge<'resource'>;
  /** `databases_apiserver_watch_events_total{type}` events written to watch streams. */
  watchEvents: Counter<'type'>;
}

/** Options of {@link createMetrics}. */
export interface CreateMetricsOptions {
  /** Number of instances in the store (sampled at scrape time). */
  storeSize?: () => number;
  /** Requests holding a read-only or mutating in-flight slot now (sampled at scrape time). */
  inFlight?: (kind: 'readOnly' | 'mutating') => number;
  registry?: Registry;
}

/** Creates the series; `/metrics` serves `registry.metrics()`. */
export function createMetrics(options: CreateMetricsOptions = {}): ApiserverMetrics {
  const registry = options.registry ?? new Registry();
  const requests = new Counter({
    name: 'databases_apiserver_request_total',
    help: 'Requests by verb, resource, subresource and HTTP code.',
    labelNames: ['verb', 'resource', 'subresource', 'code'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'databases_apiserver_request_duration_seconds',
    help: 'Latency of non-watch requests.',
    labelNames: ['verb', 'resource', 'subresource'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const watchers = new Gauge({
    name: 'databases_apiserver_watchers',
    help: 'Open watch streams.',
    labelNames: ['resource'] as const,
    registers: [registry],
  });
  const watchEvents = new Counter({
    name: 'databases_apiserver_watch_events_total',
    help: 'Events written to watch streams, by type.',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  if (options.storeSize) {
    const storeSize = options.storeSize;
    // eslint-disable-next-line no-new
    new Gauge({
      name: 'databases_apiserver_store_instances',
      help: 'DatabaseInstances held in memory.',
      registers: [registry],
      collect() {
        this.set(storeSize());
      },
    });
  }
  if (options.inFlight) {
    const inFlight = options.inFlight;
    // kube-apiserver's own series, so that its dashboards and alerts read ours too
    // eslint-disable-next-line no-new
    new Gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Requests holding an inflight slot now, per request kind (sampled at scrape time).',
      labelNames: ['request_kind'] as const,
      registers: [registry],
      collect() {
        this.set({ request_kind: 'readOnly' }, inFlight('readOnly'));
        this.set({ request_kind: 'mutating' }, inFlight('mutating'));
      },
    });
  }
  return { registry, requests, requestDuration, watchers, watchEvents };
}
