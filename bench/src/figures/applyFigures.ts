import { ANNOTATION_MANAGED_FIELDS } from '@internal/plugin-databases-common';
import type { PlannedRequest } from '../client/clientChild';
import type { PopulatedInstance } from '../population/populate';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { WRITER } from '../system/BenchCluster';
import type { SizeContext } from './types';
import { freshMemoryPairs, pairsNote } from './freshMemoryPairs';

const MANAGER = 'flux';
const REVISION = 'bench.dbaas.platform.dev/revision';
const TIME = '2026-12-01T00:00:00Z';

/** A server-side apply of `inst` as Flux makes it (forced): its engine and topology, and a label of Flux's. */
function applyRequest(inst: PopulatedInstance, revision: string): PlannedRequest {
  return {
    method: 'PATCH',
    path: `/apis/dbaas.platform.dev/v1alpha1/namespaces/${inst.namespace}/databaseinstances/${inst.name}?fieldManager=${MANAGER}&force=true`,
    headers: { Accept: 'application/json', 'content-type': 'application/apply-patch+yaml' },
    body: {
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name: inst.name, namespace: inst.namespace, labels: { [REVISION]: revision } },
      spec: { engine: inst.template.variant.engine, topology: inst.template.variant.topology },
    },
  };
}

/**
 * The record the apiserver keeps for an instance Flux created with `applyRequest`, byte for byte
 * as it writes it (an unchanged apply then writes nothing, which the figures check).
 */
const FLUX_RECORD = JSON.stringify([
  {
    manager: MANAGER,
    operation: 'Apply',
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    time: TIME,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { [`f:${REVISION}`]: {} } }, 'f:spec': { 'f:engine': {}, 'f:topology': {} } },
  },
]);

type Result = { status: number; ms: number; body?: string; error?: string };

function failures(results: Result[], what: string) {
  const bad = results.filter(r => r.status !== 200 && r.status !== 201);
  if (bad.length) throw new Error(`${what}: ${bad.length} of ${results.length} failed, first: ${bad[0].status} ${bad[0].error ?? bad[0].body ?? ''}`.slice(0, 400));
}

/** Writes Flux's label (and its record, `withRecord`) straight onto every operator object. */
function stamp(ctx: SizeContext, withRecord: boolean) {
  const store = ctx.cluster.emulator.store;
  for (const inst of ctx.instances) {
    const kind = inst.template.variant.kind;
    const current = store.get(kind, inst.namespace, inst.name)!;
    const annotations = { ...current.metadata.annotations };
    if (withRecord) annotations[ANNOTATION_MANAGED_FIELDS] = FLUX_RECORD;
    else delete annotations[ANNOTATION_MANAGED_FIELDS];
    store.update(kind, {
      ...current,
      metadata: { ...current.metadata, labels: { ...current.metadata.labels, [REVISION]: 'r0' }, annotations },
    });
  }
}

/**
 * Server-side apply. Memory: fresh apiservers over the population with Flux's label on every
 * instance, against ones where every instance also has the record Flux's apply leaves (the
 * instance's `managedFields`, one manager), each after every list format was served: the
 * steady cost of the records, as after a restart, without what a burst of writes leaves behind.
 * Then timed applies through the running apiserver, one at a time: an unchanged config (Flux's
 * periodic re-apply: nothing written) and a changed one (a new label value: a write to the
 * operator object, answered once the cache shows it).
 */
export async function applyFigures(ctx: SizeContext): Promise<Figure[]> {
  const { size, client, instances } = ctx;
  const memory = await freshMemoryPairs(ctx, { a: () => stamp(ctx, false), b: () => stamp(ctx, true) });

  const target = ctx.cluster.apiserverTarget(ctx.apiserver.port, WRITER);
  const n = ctx.iterations.small + ctx.iterations.warmup;
  const sample = Array.from({ length: n }, (_, k) => instances[(k * 7919) % instances.length]);
  const store = ctx.cluster.emulator.store;
  const rvOf = (i: PopulatedInstance) => store.get(i.template.variant.kind, i.namespace, i.name)?.metadata.resourceVersion;
  // the running apiserver has the records once it serves them
  for (const inst of [sample[0], sample[sample.length - 1]]) {
    const until = Date.now() + 60_000;
    const reader = ctx.cluster.apiserverClient(ctx.apiserver.port);
    try {
      for (;;) {
        const res = await reader.get(`/apis/dbaas.platform.dev/v1alpha1/namespaces/${inst.namespace}/databaseinstances/${inst.name}`, { keepBody: true });
        if (JSON.parse(res.body!.toString()).metadata?.managedFields) break;
        if (Date.now() > until) throw new Error(`${inst.namespace}/${inst.name} has no managedFields after 60 s`);
        await new Promise(r => setTimeout(r, 200));
      }
    } finally {
      reader.close();
    }
  }
  const rvsBefore = sample.map(rvOf);
  const unchanged: Result[] = await client.call('burst', { target, requests: sample.map(i => applyRequest(i, 'r0')), concurrency: 1 });
  failures(unchanged, 'unchanged applies');
  const rewritten = sample.filter((i, k) => rvOf(i) !== rvsBefore[k]).length;
  if (rewritten) throw new Error(`${rewritten} of ${sample.length} unchanged applies wrote the operator object`);
  const changed: Result[] = await client.call('burst', { target, requests: sample.map((i, k) => applyRequest(i, `r${k + 1}`)), concurrency: 1 });
  failures(changed, 'changed applies');
  const u = summarize(unchanged.slice(ctx.iterations.warmup).map(r => r.ms));
  const c = summarize(changed.slice(ctx.iterations.warmup).map(r => r.ms));
  const atTarget = size >= 10_000;
  return [
    makeFigure('server-side apply, unchanged: answered p99', size, u.p99, 'ms', atTarget ? { op: '<=', value: 20 } : undefined,
      `p50 ${u.p50.toFixed(1)} ms, n=${u.n}; nothing written (checked)`),
    makeFigure('server-side apply, changed: answered p99', size, c.p99, 'ms', atTarget ? { op: '<=', value: 50 } : undefined,
      `p50 ${c.p50.toFixed(1)} ms, n=${c.n}; a label value changed: the operator object written, answered once the cache has it`),
    makeFigure('server-side apply: RSS per instance of its managed fields', size, memory.rss, 'KiB', atTarget ? { op: '<=', value: 1 } : undefined,
      `with and without Flux's record (${FLUX_RECORD.length} bytes) on every instance; ${pairsNote(memory)}`),
  ];
}
