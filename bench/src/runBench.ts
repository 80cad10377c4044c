import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ClientProcess } from './client/ClientProcess';
import { describeError } from './report/describeError';
import { backstageFigures } from './figures/backstageFigures';
import { eventFigures } from './figures/eventFigures';
import { frontendFigures } from './figures/frontendFigures';
import { listFigures } from './figures/listFigures';
import { applyFigures } from './figures/applyFigures';
import { memberFigures } from './figures/memberFigures';
import { backupFigures } from './figures/backupFigures';
import { memoryFigures, memoryPair, type MemoryPair } from './figures/memoryFigures';
import { warmLists } from './figures/warmLists';
import { slowWatcherFigures } from './figures/slowWatcherFigures';
import { startupFigures } from './figures/startupFigures';
import { watchFigures } from './figures/watchFigures';
import { writeFigures } from './figures/writeFigures';
import type { FigureGroup, SizeContext } from './figures/types';
import { GROUPS, type BenchOptions, type Group } from './options/parseBenchArgs';
import { buildTemplates } from './population/buildTemplates';
import { populate } from './population/populate';
import { formatFigure, type Figure } from './report/Figure';
import type { BenchResults } from './report/writeResults';
import { BackstageProcess } from './system/BackstageProcess';
import { BenchCluster } from './system/BenchCluster';
import { buildApiserverBundle } from './system/BundledApiserver';
import type { ApiserverProcess } from './system/ApiserverProcess';

/** Where output goes: figure lines to `line`, progress to `log`. */
export interface BenchOutput {
  line(text: string): void;
  log(text: string): void;
}

/** Groups measured against a running apiserver, in order (writes add instances: last but UI). */
const GROUP_RUNNERS: Partial<Record<Group, FigureGroup>> = {
  list: listFigures,
  watch: watchFigures,
  'slow-watcher': slowWatcherFigures,
  events: eventFigures,
  writes: writeFigures,
  apply: applyFigures,
  members: memberFigures,
  backups: backupFigures,
};

/** Backstage and browser figures run up to this size (the issue sets their targets at 10,000). */
const BACKSTAGE_MAX_SIZE = 10_000;

/** Memory of an apiserver over an emulator without instances: what per-instance growth is measured from. */
async function emptyMemory(out: BenchOutput, settleMs: number): Promise<MemoryPair> {
  const cluster = await BenchCluster.start();
  const apiserver = await cluster.startApiserver();
  try {
    await apiserver.waitReady();
    await warmLists(cluster, apiserver);
    const usage = await memoryPair(apiserver, settleMs);
    out.log(`apiserver with no instance: RSS ${(usage.settled.rss / 1048576).toFixed(0)} MiB, heap ${(usage.settled.heapUsed / 1048576).toFixed(0)} MiB (settled)`);
    return usage;
  } finally {
    await apiserver.stop();
    await cluster.stop();
  }
}

/**
 * Runs the benchmark: for each size a fresh emulator populated with that many instances, a fresh
 * apiserver process (its start-up is the start-up figure), then every selected figure group.
 * A group that throws is recorded in `errors` and the run goes on.
 */
export async function runBench(options: BenchOptions, out: BenchOutput): Promise<Pick<BenchResults, 'figures' | 'errors'>> {
  const figures: Figure[] = [];
  const errors: BenchResults['errors'] = [];
  let bundleDir: string | undefined;
  const emit = (fs: Figure[]) => {
    for (const f of fs) {
      figures.push(f);
      out.line(formatFigure(f));
    }
  };
  const wants = (g: Group) => options.only.includes(g);

  out.log('building templates (emulated operators settle one instance per engine × topology × phase)');
  if (wants('startup')) {
    out.log('bundling the apiserver as deployed (deploy/build-apiserver.sh)');
    bundleDir = await mkdtemp(path.join(tmpdir(), 'dbaas-bench-bundle-'));
  }
  // independent, and two of them are other processes: side by side
  const [templates, empty, bundle] = await Promise.all([
    buildTemplates(),
    wants('memory') ? emptyMemory(out, options.iterations.settleMs) : undefined,
    bundleDir ? buildApiserverBundle(bundleDir) : undefined,
  ]);

  for (const size of options.sizes) {
    const cluster = await BenchCluster.start();
    let apiserver: ApiserverProcess | undefined;
    let client: ClientProcess | undefined;
    let backstage: BackstageProcess | undefined;
    try {
      const t0 = performance.now();
      const instances = populate(cluster.emulator, templates, { count: size, backdate: ms => cluster.setClockBack(ms) });
      out.log(`size ${size}: populated the emulator in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const bundleMs = bundle ? await cluster.timeBundleStartup(bundle) : Number.NaN;
      apiserver = await cluster.startApiserver({ cpuProfileDir: options.cpuProfileDir });
      const readyMs = await apiserver.waitReady();
      if (wants('startup')) emit(startupFigures(size, { bundleMs, childMs: readyMs, syncMs: apiserver.syncMs }));
      client = await ClientProcess.start();
      const ctx: SizeContext = {
        size,
        cluster,
        apiserver,
        instances,
        client,
        emptyMemory: empty,
        iterations: options.iterations,
        log: out.log,
      };
      const startBackstage = async () => {
        if (!backstage) {
          await cluster.registerApiserver(apiserver!.port);
          backstage = await BackstageProcess.start({
            clusterUrl: cluster.emulator.url,
            clusterCaPem: cluster.emulator.certs.clusterCa.certPem,
            components: [...new Set(instances.map(i => i.component))],
            dir: cluster.dir,
            guest: { userEntityRef: 'user:default/carol', ownershipEntityRefs: ['user:default/carol', 'group:default/platform'] },
          });
        }
        return backstage;
      };
      for (const group of GROUPS.filter(wants)) {
        if (group === 'backstage' || group === 'frontend') {
          if (size > BACKSTAGE_MAX_SIZE) {
            out.log(`size ${size}: ${group} skipped (its targets are set at 10,000; the catalog would ingest ${size} Resource entities first)`);
            continue;
          }
          out.log(`size ${size}: ${group}`);
          try {
            const b = await startBackstage();
            emit(group === 'backstage' ? await backstageFigures(ctx, b) : await frontendFigures(ctx, b));
          } catch (e) {
            const error = describeError(e);
            errors.push({ group, size, error });
            out.log(`size ${size}: ${group} FAILED TO RUN: ${error}${backstage ? `\n${backstage.logs().slice(-3000)}` : ''}`);
          }
          continue;
        }
        const run = GROUP_RUNNERS[group];
        if (group === 'memory' && empty) {
          await warmLists(cluster, apiserver);
          emit(memoryFigures(size, empty, await memoryPair(apiserver, options.iterations.settleMs)));
          continue;
        }
        if (!run) continue;
        out.log(`size ${size}: ${group}`);
        try {
          emit(await run(ctx));
        } catch (e) {
          const error = describeError(e);
          errors.push({ group, size, error });
          out.log(`size ${size}: ${group} FAILED TO RUN: ${error}`);
        }
      }
    } finally {
      await backstage?.stop();
      await client?.stop();
      await apiserver?.stop();
      await cluster.stop();
    }
  }
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  return { figures, errors };
}
