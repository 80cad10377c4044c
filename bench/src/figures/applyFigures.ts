import type { PlannedRequest } from '../client/clientChild';
import type { PopulatedInstance } from '../population/populate';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { WRITER } from '../system/BenchCluster';
import type { SizeContext } from './types';
import { warmLists } from './warmLists';

const KiB = 1024;
const REVISION = 'bench.dbaas.platform.dev/revision';
/** The apiserver has seen a baseline write of every instance within this long. */
const SEEN_WITHIN_MS = 120_000;

/** A server-side apply of `inst` as Flux makes it (forced): its engine and topology, and a label of the tool's. */
function applyRequest(inst: PopulatedInstance, revision: string): PlannedRequest {
  return {
    method: 'PATCH',
    path: `/apis/dbaas.platform.dev/v1alpha1/namespaces/${inst.namespace}/databaseinstances/${inst.name}?fieldManager=bench-gitops&force=true`,
    headers: { Accept: 'application/json', 'content-type': 'application/apply-patch+yaml' },
    body: {
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: inst.name, namespace: inst.namespace, labels: { [REVISION]: revision } },
      spec: { engine: inst.template.variant.engine, topology: inst.template.variant.topology },
    },
  };
}

type Result = { status: number; ms: number; body?: string; error?: string };

function failures(results: Result[], what: string) {
  const bad = results.filter(r => r.status !== 200 && r.status !== 201);
  if (bad.length) throw new Error(`${what}: ${bad.length} of ${results.length} failed, first: ${bad[0].status} ${bad[0].error ?? bad[0].body ?? ''}`.slice(0, 400));
}

/**
 * The same label change as an apply makes, written straight to every operator object (no
 * managed fields), once the apiserver has seen them all: the watch history then holds a
 * version of every instance, as it does after the applies, and only the records differ.
 */
async function baselineLabelWrites(ctx: SizeContext) {
  const store = ctx.cluster.emulator.store;
  for (const inst of ctx.instances) {
    const kind = inst.template.variant.kind;
    const current = store.get(kind, inst.namespace, inst.name)!;
    store.update(kind, { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, [REVISION]: 'base' } } });
  }
  const reader = ctx.cluster.apiserverClient(ctx.apiserver.port);
  try {
    const until = Date.now() + SEEN_WITHIN_MS;
    for (;;) {
      const res = await reader.get(`/apis/dbaas.platform.dev/v1alpha1/databaseinstances?labelSelector=${encodeURIComponent(`${REVISION}=base`)}`, { keepBody: true });
      const seen = JSON.parse(res.body!.toString()).items.length;
      if (seen === ctx.instances.length) return;
      if (Date.now() > until) throw new Error(`the apiserver showed ${seen} of ${ctx.instances.length} baseline writes after ${SEEN_WITHIN_MS / 1000} s`);
      await new Promise(r => setTimeout(r, 500));
    }
  } finally {
    reader.close();
  }
}

/**
 * Server-side apply: every instance applied once by a GitOps manager (each then carries the
 * `before-first-apply` record of its existing fields and the manager's own), the apiserver's
 * resident memory compared with the same label written without records (baselineLabelWrites);
 * then timed applies, one at a time, of an unchanged config (a GitOps tool's periodic re-apply:
 * nothing written) and of a changed one (a new label value: a write to the operator object,
 * answered once the cache shows it).
 */
export async function applyFigures(ctx: SizeContext): Promise<Figure[]> {
  const { size, client, instances } = ctx;
  const target = ctx.cluster.apiserverTarget(ctx.apiserver.port, WRITER);
  await baselineLabelWrites(ctx);
  // lists served before each measure: the pre-encoded bodies carry the records too
  await warmLists(ctx.cluster, ctx.apiserver);
  const before = await ctx.apiserver.memory();
  const first: Result[] = await client.call('burst', { target, requests: instances.map(i => applyRequest(i, 'r0')), concurrency: 8 });
  failures(first, 'first applies');
  await warmLists(ctx.cluster, ctx.apiserver);
  const after = await ctx.apiserver.memory();
  const perInstance = (a: number, b: number) => (b - a) / size / KiB;

  const n = ctx.iterations.small + ctx.iterations.warmup;
  const sample = Array.from({ length: n }, (_, k) => instances[(k * 7919) % instances.length]);
  const unchanged: Result[] = await client.call('burst', { target, requests: sample.map(i => applyRequest(i, 'r0')), concurrency: 1 });
  failures(unchanged, 'unchanged applies');
  const changed: Result[] = await client.call('burst', { target, requests: sample.map((i, k) => applyRequest(i, `r${k + 1}`)), concurrency: 1 });
  failures(changed, 'changed applies');
  const u = summarize(unchanged.slice(ctx.iterations.warmup).map(r => r.ms));
  const c = summarize(changed.slice(ctx.iterations.warmup).map(r => r.ms));
  return [
    makeFigure('server-side apply, unchanged: answered p99', size, u.p99, 'ms', size >= 10_000 ? { op: '<=', value: 20 } : undefined,
      `p50 ${u.p50.toFixed(1)} ms, n=${u.n}; nothing written`),
    makeFigure('server-side apply, changed: answered p99', size, c.p99, 'ms', size >= 10_000 ? { op: '<=', value: 50 } : undefined,
      `p50 ${c.p50.toFixed(1)} ms, n=${c.n}; a label value changed: the operator object written, answered once the cache has it`),
    makeFigure('server-side apply: RSS growth per instance from managed fields', size, perInstance(before.rss, after.rss), 'KiB', size >= 10_000 ? { op: '<=', value: 1 } : undefined,
      `every instance applied once (two managers each) against the same label written without records, lists served in both; heap ${perInstance(before.heapUsed, after.heapUsed).toFixed(2)} KiB, external ${perInstance(before.external, after.external).toFixed(2)} KiB per instance`),
  ];
}
