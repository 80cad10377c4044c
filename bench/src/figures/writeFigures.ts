import { adapters } from '@internal/databases-apiserver';
import type { PlannedRequest } from '../client/clientChild';
import { epochNow } from '../client/epochNow';
import { benchNamespace } from '../population/populate';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { WRITER } from '../system/BenchCluster';
import type { SizeContext } from './types';

/** Every engine × topology our API creates, in turn. */
const SPECS = adapters.flatMap(a => (a.write?.topologies ?? []).map(topology => ({ engine: a.engine, topology })));
const KINDS = new Set(adapters.flatMap(a => a.kinds.map(k => `${k.group}/${k.kind}`)));

let run = 0;

/** A create of a new instance named `name` (defaults for everything but engine and topology). */
function createRequest(name: string, i: number): PlannedRequest & { namespace: string } {
  const namespace = benchNamespace(i % 50);
  return {
    namespace,
    method: 'POST',
    path: `/apis/dbaas.platform.dev/v1alpha1/namespaces/${namespace}/databaseinstances`,
    headers: { Accept: 'application/json' },
    body: {
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseInstance',
      metadata: { name, labels: { 'backstage.io/kubernetes-id': 'bench-writes' } },
      spec: SPECS[i % SPECS.length],
    },
  };
}

/**
 * Writes: creates through the apiserver (as the aggregation layer forwards them for a cluster
 * admin), timed from the moment the client sends the request to the moment the operator object
 * is written in the emulator (seen by a store subscription in this process); then 100 creates
 * at once on 100 connections, which must all succeed.
 */
export async function writeFigures(ctx: SizeContext): Promise<Figure[]> {
  const { size, client } = ctx;
  const target = ctx.cluster.apiserverTarget(ctx.apiserver.port, WRITER);
  const written = new Map<string, number>();
  const sub = ctx.cluster.emulator.store.watch(ctx.cluster.emulator.store.currentRV(), e => {
    if (e.type === 'ADDED' && KINDS.has(`${e.resource.group}/${e.resource.kind}`)) {
      written.set(`${e.object.metadata.namespace}/${e.object.metadata.name}`, epochNow());
    }
  });
  const tag = `w${size}r${run++}`;
  try {
    const n = ctx.iterations.large;
    const sequential = Array.from({ length: n + ctx.iterations.warmup }, (_, i) => createRequest(`${tag}-s${i}`, i));
    const seqResults: Array<{ sentAt: number; status: number; ms: number; body?: string }> = await client.call('burst', {
      target,
      requests: sequential,
      concurrency: 1,
    });
    const failedSeq = seqResults.filter(r => r.status !== 201);
    if (failedSeq.length) throw new Error(`creates failed: ${failedSeq.length}, first: ${failedSeq[0].status} ${failedSeq[0].body}`);
    const toWritten = seqResults
      .map((r, i) => (written.get(`${sequential[i].namespace}/${(sequential[i].body as any).metadata.name}`) ?? Number.NaN) - r.sentAt)
      .slice(ctx.iterations.warmup);
    const w = summarize(toWritten);
    const answered = summarize(seqResults.slice(ctx.iterations.warmup).map(r => r.ms));

    const concurrent = Array.from({ length: 100 }, (_, i) => createRequest(`${tag}-c${i}`, i));
    const started = epochNow();
    const burst: Array<{ status: number; ms: number; error?: string; body?: string }> = await client.call('burst', {
      target,
      requests: concurrent,
      concurrency: 100,
    });
    const wall = epochNow() - started;
    const errors = burst.filter(r => r.status !== 201);
    const firstError = errors[0] ? ` first: ${errors[0].status} ${errors[0].error ?? errors[0].body ?? ''}`.slice(0, 200) : '';
    return [
      makeFigure('create → operator object written p99', size, w.p99, 'ms', { op: '<=', value: 50 },
        `POST sent → object in the emulator's store; p50 ${w.p50.toFixed(1)} ms; n=${w.n} over ${SPECS.length} engine/topologies`),
      makeFigure('create → 201 answered p99', size, answered.p99, 'ms', undefined, 'the answer waits until the watch cache shows the new instance'),
      makeFigure('100 concurrent creates: errors', size, errors.length, 'errors', { op: '<=', value: 0 },
        `all answered in ${wall.toFixed(0)} ms${firstError}`),
    ];
  } finally {
    sub.stop();
  }
}
