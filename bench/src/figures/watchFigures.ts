import { epochNow } from '../client/epochNow';
import type { ClientProcess } from '../client/ClientProcess';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { INSTANCES } from './listFigures';
import { statusFlipper, type PlannedChange } from './statusFlipper';
import type { SizeContext } from './types';

/** The list resourceVersion now (watches start from it: no initial events). */
export async function currentRv(ctx: SizeContext): Promise<string> {
  const r = await ctx.client.call('fetch', { target: ctx.cluster.apiserverTarget(ctx.apiserver.port), request: { path: `${INSTANCES}?limit=1` } });
  return JSON.parse(r.body).metadata.resourceVersion;
}

/**
 * Opens `n` watches of every namespace from now; `neverReadLast` makes the last one a stuck
 * client; `streamsPerConnection` carries them as HTTP/2 streams, that many to a connection.
 */
export async function openWatchers(ctx: SizeContext, n: number, neverReadLast = false, streamsPerConnection?: number): Promise<number> {
  const rv = await currentRv(ctx);
  return ctx.client.call('openWatches', {
    target: ctx.cluster.apiserverTarget(ctx.apiserver.port),
    path: `${INSTANCES}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`,
    n,
    neverReadLast,
    streamsPerConnection,
  });
}

/**
 * How kube-apiserver's aggregator reaches an aggregated API server: every proxied request,
 * watches included, as streams of pooled HTTP/2 connections (kubernetes/kubernetes#60042,
 * openshift/kubernetes#2732), up to the streams the server allows on one (HTTP2_MAX_STREAMS).
 */
const AGGREGATOR_STREAMS_PER_CONNECTION = 1000;

/**
 * Changes made and not counted after the watchers open: the first few after opening 1,000 are
 * slower in both processes (code paths not yet optimised, the opening's garbage), in quick runs too.
 */
const FAN_OUT_WARMUP = 5;

/**
 * Delivery latency of changes to the streams of `set`: each round arms the client with a needle
 * naming the changed object, makes the change, and collects every stream's arrival time minus
 * the moment before the write (both {@link epochNow}).
 */
export async function deliveryRounds(
  client: ClientProcess,
  set: number,
  rounds: number,
  nextChange: () => PlannedChange,
  needleOf: (c: { namespace: string; name: string }) => string,
  opts: { expect?: number; timeoutMs?: number; pauseMs?: number; warmup?: number } = {},
): Promise<{ latencies: number[]; missed: number; firsts: number[] }> {
  const latencies: number[] = [];
  /** Per round, the first stream's latency: what the change took to get through before fan-out. */
  const firsts: number[] = [];
  let missed = 0;
  const warmup = opts.warmup ?? 0;
  for (let r = -warmup; r < rounds; r++) {
    await new Promise(res => setTimeout(res, opts.pauseMs ?? 150));
    const change = nextChange();
    await client.call('arm', { set, needle: needleOf(change) });
    const writtenAt = epochNow();
    change.apply();
    const got = await client.call('collect', { set, writtenAt, timeoutMs: opts.timeoutMs ?? 5000, expect: opts.expect });
    // warm-up rounds (negative) are made and waited for, not counted
    if (r < 0) continue;
    latencies.push(...got.latencies);
    if (got.latencies.length) firsts.push(Math.min(...got.latencies));
    missed += got.missed;
  }
  return { latencies, missed, firsts };
}

/** The line of a watch event of `name` in `namespace` (metadata is serialised name first). */
export const watchNeedle = (c: { namespace: string; name: string }) => `"name":"${c.name}","namespace":"${c.namespace}"`;

/** Delivery of status changes to `n` watchers opened by `open`, as figures named `label`. */
async function fanOutFigures(
  ctx: SizeContext,
  n: number,
  transport: { label: string; note: string; streamsPerConnection?: number; target: boolean },
): Promise<Figure[]> {
  const set = await openWatchers(ctx, n, false, transport.streamsPerConnection);
  try {
    ctx.log(`  ${n} watchers open (${transport.note})`);
    const { latencies, missed, firsts } = await deliveryRounds(
      ctx.client,
      set,
      ctx.iterations.watchRounds,
      statusFlipper(ctx.cluster.emulator, ctx.instances),
      watchNeedle,
      { warmup: FAN_OUT_WARMUP },
    );
    const s = summarize(latencies);
    const first = summarize(firsts);
    // the target is for 1,000 watchers
    const target = transport.target && n >= 1000 ? ({ op: '<=', value: 50 } as const) : undefined;
    return [
      makeFigure(`watch fan-out${transport.label}: status change → watchers p50`, ctx.size, s.p50, 'ms', undefined,
        `${ctx.iterations.watchRounds} changes (after ${FAN_OUT_WARMUP} warm-up changes) × ${n} watchers of -A, ${transport.note}`),
      makeFigure(`watch fan-out${transport.label}: status change → watchers p99`, ctx.size, s.p99, 'ms', target,
        `${n} watchers; emulator write → event line in the client process`),
      makeFigure(`watch fan-out${transport.label}: deliveries missing after 5 s`, ctx.size, missed, 'events', { op: '<=', value: 0 }),
      makeFigure(`watch fan-out${transport.label}: first watcher of each change p99`, ctx.size, first.p99, 'ms', undefined,
        `the change through the emulator's watch, the informer and the 5 ms batch, before fan-out; p50 ${first.p50.toFixed(1)} ms`),
    ];
  } finally {
    await ctx.client.call('closeStreams', { set });
  }
}

/**
 * Watch fan-out: one upstream status change reaching 1,000 concurrent watchers of `-A`, first
 * as the aggregation layer carries them to the apiserver (HTTP/2 streams), then as 1,000
 * clients connecting to it directly over HTTP/1.1, one TLS connection each.
 */
export async function watchFigures(ctx: SizeContext): Promise<Figure[]> {
  const n = ctx.iterations.watchers;
  return [
    ...(await fanOutFigures(ctx, n, {
      label: '',
      note: `HTTP/2 streams, ${AGGREGATOR_STREAMS_PER_CONNECTION} to a connection, as kube-apiserver's aggregator proxies them`,
      streamsPerConnection: AGGREGATOR_STREAMS_PER_CONNECTION,
      target: true,
    })),
    ...(await fanOutFigures(ctx, n, {
      label: ' over HTTP/1.1',
      note: 'one HTTP/1.1 TLS connection each (clients straight to the apiserver, no aggregator)',
      target: false,
    })),
  ];
}
