import { adapters } from '@internal/databases-apiserver';
import type { PlannedRequest } from '../client/clientChild';
import type { HttpsClientOptions } from '../client/HttpsClient';
import { kubeconfigTarget } from '../client/kubeconfigTarget';
import { COMPONENT_LABEL, benchNamespace } from '../population/populate';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import type { SizeContext } from './types';

export const INSTANCES = '/apis/dbaas.platform.dev/v1alpha1/databaseinstances';
const JSON_ACCEPT = { Accept: 'application/json' };
/** What kubectl 1.3x sends for `get`: Table first, then plain JSON. */
export const TABLE_ACCEPT = {
  Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
};

/** Every operator kind that holds instances: the lists a user without us merges by hand. */
export const OPERATOR_LIST_PATHS = adapters.flatMap(a => a.kinds.map(k => `/apis/${k.group}/${k.version}/${k.plural}`));

/** Where the baseline lists come from: the emulator, or the cluster of `KUBECONFIG` when set. */
function baseline(ctx: SizeContext): { target: HttpsClientOptions; source: string } {
  const file = process.env.KUBECONFIG;
  if (file) return { target: kubeconfigTarget(file), source: `cluster of KUBECONFIG (${file})` };
  return { target: ctx.cluster.emulatorTarget(), source: 'emulator' };
}

/** `count` iterations (after `warmup`) of the same plan. */
const repeat = (plan: PlannedRequest[], count: number) => Array.from({ length: count }, () => plan);

/**
 * List figures: `-A` as JSON and as Table (p50/p99), each against `JSON.stringify` of the same
 * response and against the direct lists of every operator kind from the baseline (sequential,
 * as `kubectl get a,b,c` does), all timed by the client process in this run; one namespace and
 * one label selector p99.
 */
export async function listFigures(ctx: SizeContext): Promise<Figure[]> {
  const { size, iterations: it, client } = ctx;
  const api = ctx.cluster.apiserverTarget(ctx.apiserver.port);
  const base = baseline(ctx);
  const figures: Figure[] = [];
  // The issue sets every list target at 10,000. Elsewhere the figures are context: at 1,000 a
  // request's fixed costs (a round trip of an empty list is ~1 ms here) are half of what
  // JSON.stringify takes for the whole Table, so a ratio there measures the round trip.
  const at10k = size === 10_000;

  // The baseline must hold the same objects, or its ratio means nothing.
  let baselineItems = 0;
  for (const path of OPERATOR_LIST_PATHS) {
    const r = await client.call('fetch', { target: base.target, request: { path, headers: JSON_ACCEPT } });
    if (r.status !== 200) throw new Error(`baseline GET ${path} answered ${r.status}`);
    baselineItems += (JSON.parse(r.body).items ?? []).length;
  }
  const comparable = Math.abs(baselineItems - size) <= size * 0.1;
  ctx.log(`  baseline (${base.source}) holds ${baselineItems} operator objects`);

  const basePlan = OPERATOR_LIST_PATHS.map(path => ({ path, headers: JSON_ACCEPT }));
  const baselineMs: number[] = await client.call('timeIterations', {
    target: base.target,
    iterations: repeat(basePlan, it.warmup + it.large),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const baseStats = summarize(baselineMs);
  figures.push(
    makeFigure('baseline: direct lists of every operator kind p50', size, baseStats.p50, 'ms', undefined,
      `${OPERATOR_LIST_PATHS.length} kinds, one after another, from the ${base.source}; n=${baseStats.n}`),
  );

  for (const [format, headers] of [['JSON', JSON_ACCEPT], ['Table', TABLE_ACCEPT]] as const) {
    const request = { path: INSTANCES, headers };
    // JSON.stringify is timed half before and half after the lists, so that a slower minute of
    // the machine weighs on both sides of the ratio
    const timeStringify = () =>
      client.call('timeStringify', {
        target: api,
        request,
        field: format === 'JSON' ? 'items' : undefined,
        n: Math.ceil(it.large / 2),
        warmup: it.warmup,
      });
    const strung = await timeStringify();
    if (format === 'JSON' && strung.count !== size) throw new Error(`list -A returned ${strung.count} items, expected ${size}`);
    const ms: number[] = await client.call('timeIterations', {
      target: api,
      iterations: repeat([request], it.warmup + it.large),
      warmup: it.warmup,
      warmupMs: it.warmupMs,
    });
    const s = summarize(ms);
    const stringify = summarize([...strung.ms, ...(await timeStringify()).ms]);
    // what the timed requests carried: the first fetch (for JSON.stringify) may have gone out
    // uncompressed while the gzip blocks were still being filled (the body itself is not wanted:
    // 80 MiB of text over IPC at 50,000)
    const warm: { wireBytes: number } = await client.call('fetch', { target: api, request, withoutBody: true });
    // kubectl --disable-compression (or a client that does not ask for gzip): context, no target
    const plainMs: number[] = await client.call('timeIterations', {
      target: { ...api, compression: false },
      iterations: repeat([request], it.warmup + it.large),
      warmup: it.warmup,
      warmupMs: it.warmupMs,
    });
    const plain = summarize(plainMs);
    // the same over HTTP/1.1 (a client that does not offer h2): context, no target
    const h1Ms: number[] = await client.call('timeIterations', {
      target: { ...api, protocol: 'http/1.1' },
      iterations: repeat([request], it.warmup + it.large),
      warmup: it.warmup,
      warmupMs: it.warmupMs,
    });
    const h1 = summarize(h1Ms);
    const mib = (n: number) => (n / 1048576).toFixed(1);
    figures.push(
      makeFigure(`list -A ${format} p50`, size, s.p50, 'ms', at10k ? { op: '<=', value: 30 } : undefined,
        `${mib(strung.bytes)} MiB (${mib(warm.wireBytes)} MiB gzip, asked for as client-go does, decompressed in the timing) over ${strung.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'} as the aggregation layer calls (front-proxy cert, X-Remote-User carol); n=${s.n}`),
      makeFigure(`list -A ${format} p50, HTTP/1.1`, size, h1.p50, 'ms', undefined,
        `gzip asked for; one keep-alive HTTPS/1.1 connection (a client that does not offer h2); p99 ${h1.p99.toFixed(1)} ms`),
      makeFigure(`list -A ${format} p50, uncompressed`, size, plain.p50, 'ms', undefined,
        `no Accept-Encoding (kubectl --disable-compression); p99 ${plain.p99.toFixed(1)} ms`),
      makeFigure(`list -A ${format} p99`, size, s.p99, 'ms', at10k ? { op: '<=', value: 80 } : undefined),
      makeFigure(`list -A ${format} / JSON.stringify(same items)`, size, s.p50 / stringify.p50, 'ratio', at10k ? { op: '<=', value: 0.5 } : undefined,
        `p50 ${s.p50.toFixed(1)} ms vs JSON.stringify p50 ${stringify.p50.toFixed(1)} ms in the client process (before and after)${at10k ? '' : ' (context: the target is set at 10,000)'}`),
      makeFigure(`list -A ${format} / direct operator lists`, size, s.p50 / baseStats.p50, 'ratio', comparable && at10k ? { op: '<=', value: 1.0 } : undefined,
        comparable ? `p50 vs baseline p50 ${baseStats.p50.toFixed(1)} ms` : `baseline holds ${baselineItems} objects, not ${size}: no verdict`),
    );
  }

  const namespaces = Math.min(50, size);
  // Warm-up asks for every namespace once: the apiserver's authorization answers are cached per
  // request attributes for 10 s (as kube-apiserver's webhook authorizer's), namespace included.
  const nsWarmup = Math.max(it.warmup, namespaces);
  const nsMs: number[] = await client.call('timeIterations', {
    target: api,
    iterations: Array.from({ length: nsWarmup + it.small }, (_, i) => [
      { path: `/apis/dbaas.platform.dev/v1alpha1/namespaces/${benchNamespace(i % namespaces)}/databaseinstances`, headers: JSON_ACCEPT },
    ]),
    warmup: nsWarmup,
    warmupMs: it.warmupMs,
  });
  const ns = summarize(nsMs);
  figures.push(makeFigure('list one namespace p99', size, ns.p99, 'ms', at10k ? { op: '<=', value: 5 } : undefined,
    `~${Math.round(size / namespaces)} of ${size}; p50 ${ns.p50.toFixed(2)} ms; n=${ns.n} after ${it.warmupMs / 1000} s of warm-up`));

  const components = [...new Set(ctx.instances.map(i => i.component))];
  const selMs: number[] = await client.call('timeIterations', {
    target: api,
    iterations: Array.from({ length: it.warmup + it.small }, (_, i) => [
      { path: `${INSTANCES}?labelSelector=${encodeURIComponent(`${COMPONENT_LABEL}=${components[i % components.length]}`)}`, headers: JSON_ACCEPT },
    ]),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const sel = summarize(selMs);
  figures.push(makeFigure('list -A one label selector p99', size, sel.p99, 'ms', at10k ? { op: '<=', value: 5 } : undefined,
    `~${Math.round(size / components.length)} of ${size}; p50 ${sel.p50.toFixed(2)} ms; n=${sel.n} after ${it.warmupMs / 1000} s of warm-up`));
  return figures;
}
