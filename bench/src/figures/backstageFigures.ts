import { epochNow } from '../client/epochNow';
import { hasBackups, populateBackups } from '../population/populateBackups';
import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import type { BackstageProcess } from '../system/BackstageProcess';
import { pausesDuring } from './pausesDuring';
import { statusFlipper } from './statusFlipper';
import type { PopulatedInstance } from '../population/populate';
import type { SizeContext } from './types';
import { deliveryRounds, watchNeedle } from './watchFigures';

/** Polls `check` every 500 ms until it is true; throws with `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 500));
  }
}

/** Waits until the backend's shared watch holds every instance and the catalog has the components. */
export async function backstageSettled(ctx: SizeContext, backstage: BackstageProcess, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const started = epochNow();
  await until(`the backend's view of ${ctx.size} instances`, async () => {
    const r = await fetch(`${backstage.baseUrl}/api/databases/instances?limit=1`, { headers });
    return r.ok && ((await r.json()) as { totalItems: number }).totalItems >= ctx.size;
  });
  // Components and the instances' Resource entities queue for the same catalog processing loop:
  // on a loaded 2-core machine that takes minutes at 10,000. The loop takes entities in its own
  // order (the last one of the file being there says nothing of the first): wait for all of them.
  const components = [...new Set(ctx.instances.map(i => i.component))];
  await until(`${components.length} catalog components`, async () => {
    const r = await fetch(`${backstage.baseUrl}/api/catalog/entities/by-refs`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ entityRefs: components.map(c => `component:default/${c}`), fields: ['metadata.name'] }),
    });
    return r.ok && ((await r.json()) as { items: unknown[] }).items.every(item => item !== null);
  }, 900_000);
  // The databases catalog provider turns every instance into a Resource entity; until the
  // catalog has processed them its database is busy and every catalog lookup is slower.
  await until(`${ctx.size} database Resource entities in the catalog`, async () => {
    const r = await fetch(`${backstage.baseUrl}/api/catalog/entities/by-query?filter=kind=resource,spec.type=database&limit=1`, { headers });
    return r.ok && ((await r.json()) as { totalItems: number }).totalItems >= ctx.size;
  }, 900_000);
  ctx.log(`  backend settled in ${((epochNow() - started) / 1000).toFixed(1)} s`);
}

/**
 * Backstage backend figures, through the real backend (packages/backend in a child process) →
 * the emulator's aggregation layer → the apiserver, signed in as carol (who may read every
 * namespace): a component's databases among all instances, the Databases page's list route one
 * page at a time, and one phase change reaching 500 open event streams.
 */
export async function backstageFigures(ctx: SizeContext, backstage: BackstageProcess): Promise<Figure[]> {
  const { size, iterations: it, client } = ctx;
  const token = await backstage.guestToken();
  await backstageSettled(ctx, backstage, token);
  const target = { baseUrl: backstage.baseUrl, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } };
  const at10k = size === 10_000;
  const figures: Figure[] = [];

  const components = [...new Set(ctx.instances.map(i => i.component))];
  const catalogMs: number[] = await client.call('timeIterations', {
    target,
    iterations: Array.from({ length: it.warmup + it.small }, (_, i) => [
      { path: `/api/catalog/entities/by-name/component/default/${components[i % components.length]}` },
    ]),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const catalogLookup = summarize(catalogMs);
  figures.push(makeFigure('backstage: catalog entity lookup p99 (context)', size, catalogLookup.p99, 'ms', undefined,
    `GET /api/catalog/entities/by-name/…, which the entity route makes first; p50 ${catalogLookup.p50.toFixed(1)} ms`));
  const entityPauses = pausesDuring({ backend: backstage, apiserver: ctx.apiserver });
  const entityMs: number[] = await client.call('timeIterations', {
    target,
    iterations: Array.from({ length: it.warmup + it.small }, (_, i) => [
      { path: `/api/databases/entities/component/default/${components[i % components.length]}/instances` },
    ]),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const entity = summarize(entityMs);
  figures.push(makeFigure('backstage: an entity\'s databases p99', size, entity.p99, 'ms', at10k ? { op: '<=', value: 20 } : undefined,
    `GET /api/databases/entities/component/…/instances, ~${Math.round(size / components.length)} of ${size}; p50 ${entity.p50.toFixed(1)} ms; n=${entity.n} after ${it.warmupMs / 1000} s of warm-up; ${entityPauses.stop()}`));

  // The Databases page: first page sorted by name, then pages further down (cursor = offset).
  const pages = Math.max(1, Math.floor(size / 100));
  const cursor = (page: number) => Buffer.from(`o:${page * 100}`).toString('base64url');
  const listMs: number[] = await client.call('timeIterations', {
    target,
    iterations: Array.from({ length: it.warmup + it.small }, (_, i) => [
      { path: `/api/databases/instances?limit=100${i % 3 === 0 ? '' : `&cursor=${cursor((i * 37) % pages)}`}` },
    ]),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const list = summarize(listMs);
  figures.push(makeFigure('backstage: list route, one page of 100 p99', size, list.p99, 'ms', at10k ? { op: '<=', value: 100 } : undefined,
    `GET /api/databases/instances?limit=100[&cursor]; p50 ${list.p50.toFixed(1)} ms; n=${list.n}`));

  figures.push(await backupsRouteFigure(ctx, backstage, target));

  const streams = it.eventStreams;
  const set: number = await client.call('openEventStreams', {
    url: `${backstage.baseUrl}/api/databases/events`,
    headers: { Authorization: `Bearer ${token}` },
    n: streams,
  });
  try {
    ctx.log(`  ${streams} event streams open`);
    const { latencies, missed } = await deliveryRounds(client, set, it.watchRounds, statusFlipper(ctx.cluster.emulator, ctx.instances), watchNeedle, {
      pauseMs: 300,
    });
    const s = summarize(latencies);
    figures.push(
      makeFigure('backstage: phase change → SSE streams p99', size, s.p99, 'ms', streams >= 500 ? { op: '<=', value: 100 } : undefined,
        `${streams} streams; emulator write → apiserver → aggregation layer → backend watch → event line in the client; p50 ${s.p50.toFixed(1)} ms; ${it.watchRounds} changes`),
      makeFigure('backstage: SSE deliveries missing after 5 s', size, missed, 'events', { op: '<=', value: 0 }),
    );
  } finally {
    await client.call('closeStreams', { set });
  }
  return figures;
}

/** Instances whose Backups card the route figure opens, spread over the population. */
const TIMED_INSTANCES = 100;
/** Runs per instance, as the backups group writes them (5 × 10,000 = its 50,000). */
const RUNS_PER_INSTANCE = 5;

/**
 * The Backups card's route (issue 22: "the Backups tab's route p99 ≤ 20 ms"): `GET
 * …/instances/:name/backups` as JSON (the first answer of the card; the stream starts with the
 * same list), which reads the instance and lists its runs as the user through the aggregation
 * layer, never from a cache of the backend's. Timed over instances whose operator has backups.
 * The backups group, run before this one, wrote 5 runs per instance; run alone, this group
 * writes them for the timed instances itself.
 */
async function backupsRouteFigure(
  ctx: SizeContext,
  backstage: BackstageProcess,
  target: { baseUrl: string; headers: Record<string, string> },
): Promise<Figure> {
  const { size, iterations: it, client } = ctx;
  const backed = ctx.instances.filter(hasBackups);
  const step = Math.max(1, Math.floor(backed.length / TIMED_INSTANCES));
  const timed: PopulatedInstance[] = backed.filter((_, i) => i % step === 0).slice(0, TIMED_INSTANCES);
  const path = (i: PopulatedInstance) => `/api/databases/clusters/local/namespaces/${i.namespace}/instances/${i.name}/backups`;
  const runsOf = async (i: PopulatedInstance) => {
    const r = await fetch(`${target.baseUrl}${path(i)}`, { headers: target.headers });
    return r.ok ? ((await r.json()) as { items: unknown[] }).items.length : -1;
  };
  let written = false;
  if ((await runsOf(timed[0])) === 0) {
    populateBackups(ctx.cluster.emulator, timed, RUNS_PER_INSTANCE * timed.length, ms => ctx.cluster.setClockBack(ms));
    written = true;
    ctx.log(`  wrote ${RUNS_PER_INSTANCE} backup runs for each of the ${timed.length} timed instances (the backups group did not run)`);
  }
  // the apiserver serves a run once its watch has delivered it
  await until(`the backup runs of ${timed.length} instances through the backend`, async () => (await runsOf(timed[timed.length - 1])) >= RUNS_PER_INSTANCE, 300_000);
  const pauses = pausesDuring({ backend: backstage, apiserver: ctx.apiserver });
  const routeMs: number[] = await client.call('timeIterations', {
    target,
    iterations: Array.from({ length: it.warmup + it.small }, (_, i) => [{ path: path(timed[i % timed.length]) }]),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const route = summarize(routeMs);
  const paused = pauses.stop();
  // context: the route's two reads (the instance, its runs) through the emulator's aggregation
  // layer without the backend, one after the other (the route makes them at once)
  const api = '/apis/dbaas.platform.dev/v1alpha1/namespaces';
  const directMs: number[] = await client.call('timeIterations', {
    target: ctx.cluster.emulatorTarget(),
    iterations: Array.from({ length: it.warmup + it.small }, (_, i) => {
      const t = timed[i % timed.length];
      return [
        { path: `${api}/${t.namespace}/databaseinstances/${t.name}`, headers: { Accept: 'application/json' } },
        { path: `${api}/${t.namespace}/databasebackups?fieldSelector=${encodeURIComponent(`spec.instanceRef.name=${t.name}`)}`, headers: { Accept: 'application/json' } },
      ];
    }),
    warmup: it.warmup,
    warmupMs: it.warmupMs,
  });
  const direct = summarize(directMs);
  const each = await runsOf(timed[0]);
  const runs = written ? `${each} runs each, written for this figure` : `${each} runs each, of the backups group's ${RUNS_PER_INSTANCE * size}`;
  return makeFigure("backstage: an instance's backups route p99", size, route.p99, 'ms', size === 10_000 ? { op: '<=', value: 20 } : undefined,
    `GET /api/databases/clusters/…/instances/:name/backups (JSON) over ${timed.length} instances, ${runs}; p50 ${route.p50.toFixed(1)} ms; n=${route.n} after ${it.warmupMs / 1000} s of warm-up; ` +
      `its two reads through the emulator's aggregation layer, in turn: p50 ${direct.p50.toFixed(1)}, p99 ${direct.p99.toFixed(1)} ms; ${paused}`);
}
