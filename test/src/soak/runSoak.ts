import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_INSTANCES, KubeEmulator } from '@internal/kube-emulator';
import { spawnApiserver } from '../reliability/support/spawnApiserver';
import { linearSlope } from './linearSlope';
import type { ProbeSample } from './processProbe';
import { sampleProcess } from './sampleProcess';
import { SoakWatcher, type WatcherStats } from './SoakWatcher';
import type { SoakOptions } from './soakOptions';
import { Workload, type WorkloadStats } from './Workload';

const INSTANCES = '/apis/dbaas.platform.dev/v1alpha1/databaseinstances';

/** One memory sample of the apiserver process. */
export interface MemorySample {
  /** Minutes since the load started. */
  minute: number;
  rssBytes: number;
  heapUsedBytes?: number;
  fds: number;
  sockets: number;
}

/** Handles of the apiserver process with no client connected: before the load and after it. */
export interface HandleSnapshot {
  fds: number;
  sockets: number;
  /** `process.getActiveResourcesInfo()` by type, from inside the process. */
  resources: Record<string, number>;
  heapUsedBytes: number;
  rssBytes: number;
}

/** What `yarn soak` measured. */
export interface SoakResult {
  startedAt: string;
  options: SoakOptions;
  node: string;
  machine: { cpus: number; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  durationMinutes: number;
  workload: WorkloadStats & { opsPerSecond: number; latency: Record<string, { p50: number; p99: number; max: number }> };
  watchers: { count: number; totals: Omit<WatcherStats, 'errors'>; errors: string[] };
  phaseChanges: number;
  outage?: { startedMinute: number; seconds: number };
  memory: {
    samples: MemorySample[];
    /**
     * Least-squares slopes over the samples after the warm-up (by default until the watch
     * history window is full, plus a minute, at most half the run).
     */
    rssSlopeKiBPerMin: number;
    heapUsedSlopeKiBPerMin: number;
    warmupMinutes: number;
    /** Whether the slope counted in the verdict (10 minutes of steady state or more). */
    judged: boolean;
  };
  handles: { before: HandleSnapshot; after: HandleSnapshot; diff: Record<string, number> };
  shutdown: { exitCode: number | null; seconds: number };
  errors: number;
  verdict: { pass: boolean; reasons: string[] };
}

/** A small seeded PRNG (mulberry32): the same seed, the same run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/**
 * The soak: the emulator (demo data, emulated operators, node-lease-like heartbeats) in this
 * process, the apiserver as a child process (as deployed) behind its APIService, and clients
 * through the aggregation layer: long-lived watchers plus a fixed-rate mix of reads and writes,
 * while demo instances change phase. Samples the apiserver's memory and handles throughout.
 */
export async function runSoak(options: SoakOptions, log: (line: string) => void): Promise<SoakResult> {
  const os = await import('node:os');
  const startedAt = new Date().toISOString();
  const random = prng(options.seed);
  const loadAverageAtStart = os.loadavg();
  const emulator = await KubeEmulator.start({ seed: true, operatorStepMs: 500, heartbeatMs: 10_000 });
  const dir = await mkdtemp(path.join(tmpdir(), 'dbaas-soak-'));
  const probeFile = path.join(dir, 'probe.jsonl');
  const serving = await emulator.issueExtensionServingCert('api', 'dbaas-system');
  await writeFile(path.join(dir, 'tls.crt'), serving.certPem);
  await writeFile(path.join(dir, 'tls.key'), serving.keyPem);
  await emulator.writeKubeconfig(path.join(dir, 'kubeconfig'), { token: 'dbaas-apiserver-token' });
  const apiserver = await spawnApiserver({
    kubeconfig: path.join(dir, 'kubeconfig'),
    tlsCertFile: path.join(dir, 'tls.crt'),
    tlsKeyFile: path.join(dir, 'tls.key'),
    nodeArgs: ['--expose-gc', '--require', path.join(__dirname, 'processProbe.ts')],
    args: ['--watch-history-seconds', String(options.historySeconds), '--watch-history-size', String(options.historySize)],
    env: { DBAAS_SOAK_PROBE_FILE: probeFile, DBAAS_SOAK_PROBE_MS: String(options.sampleSeconds * 1000), DBAAS_APISERVER_SHUTDOWN_DELAY_MS: '1000' },
  });
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets: Infinity,
    ca: emulator.certs.clusterCa.certPem,
    cert: emulator.certs.admin.certPem,
    key: emulator.certs.admin.keyPem,
  });
  const watchers: SoakWatcher[] = [];
  let phaseTimer: NodeJS.Timeout | undefined;
  let sampleTimer: NodeJS.Timeout | undefined;
  try {
    await emulator.registerApiService({ group: 'dbaas.platform.dev', version: 'v1alpha1', port: apiserver.port, caPem: emulator.certs.clusterCa.certPem });
    log(`apiserver pid ${apiserver.pid} on :${apiserver.port}, emulator on :${emulator.port}`);

    const probe = async (): Promise<ProbeSample> => {
      const before = existsSync(probeFile) ? readFileSync(probeFile, 'utf8').length : 0;
      apiserver.child.kill('SIGUSR2');
      for (let i = 0; i < 100; i++) {
        await sleep(50);
        const text = existsSync(probeFile) ? readFileSync(probeFile, 'utf8') : '';
        if (text.length > before) return JSON.parse(text.trimEnd().split('\n').pop()!);
      }
      throw new Error('the apiserver probe did not answer');
    };
    const snapshot = async (): Promise<HandleSnapshot> => {
      const inside = await probe();
      const outside = sampleProcess(apiserver.pid);
      return { fds: outside.fds, sockets: outside.sockets, resources: inside.resources, heapUsedBytes: inside.heapUsed, rssBytes: outside.rssBytes };
    };

    await sleep(3000);
    const before = await snapshot();
    log(`before: rss ${(before.rssBytes / 2 ** 20).toFixed(1)} MiB, heap ${(before.heapUsedBytes / 2 ** 20).toFixed(1)} MiB, ${before.fds} fds`);

    for (let i = 0; i < options.watchers; i++) {
      const w = new SoakWatcher({ port: emulator.port, agent, path: INSTANCES }, () => 30 + Math.floor(random() * 60));
      w.start();
      watchers.push(w);
    }
    const workload = new Workload({ port: emulator.port, agent, rate: options.rate, population: options.population, random });
    await workload.loadEngines();
    const loadStart = Date.now();
    const minute = () => (Date.now() - loadStart) / 60_000;
    workload.start();

    let phaseChanges = 0;
    const demo = DEMO_INSTANCES.filter(d => d.mode === 'ready');
    phaseTimer = setInterval(() => {
      const d = demo[Math.floor(random() * demo.length)];
      const ref = { kind: d.kind.kind, group: d.kind.group, namespace: d.namespace, name: d.name };
      const healthy = emulator.operators.health(ref).mode === 'ready';
      emulator.operators.setHealth(ref, healthy ? 'degraded' : 'ready', healthy ? 'soak: one member down' : undefined);
      phaseChanges++;
    }, options.phaseChangeSeconds * 1000);

    const samples: MemorySample[] = [];
    let lastProbeLength = 0;
    sampleTimer = setInterval(() => {
      const outside = sampleProcess(apiserver.pid);
      let heapUsedBytes: number | undefined;
      const text = existsSync(probeFile) ? readFileSync(probeFile, 'utf8') : '';
      if (text.length > lastProbeLength) {
        heapUsedBytes = (JSON.parse(text.trimEnd().split('\n').pop()!) as ProbeSample).heapUsed;
        lastProbeLength = text.length;
      }
      samples.push({ minute: minute(), rssBytes: outside.rssBytes, heapUsedBytes, fds: outside.fds, sockets: outside.sockets });
    }, options.sampleSeconds * 1000);

    let outage: SoakResult['outage'];
    const endAt = loadStart + options.minutes * 60_000;
    let lastReport = 0;
    const reported = new Set<string>();
    while (Date.now() < endAt) {
      await sleep(1000);
      if (options.outageSeconds > 0 && !outage && minute() >= options.minutes / 2) {
        outage = { startedMinute: minute(), seconds: options.outageSeconds };
        log(`outage: kube-apiserver storage unavailable for ${options.outageSeconds} s`);
        workload.setOutage(true);
        emulator.setFault('unavailable', { scope: 'storage' });
        setTimeout(() => {
          emulator.setFault('none');
          // writes sent just before the end may still be answered 503
          setTimeout(() => workload.setOutage(false), 2000);
          log('outage over');
        }, options.outageSeconds * 1000);
      }
      for (const e of [...workload.stats.firstErrors, ...watchers.flatMap(w => w.stats.errors)]) {
        if (!reported.has(e)) log(`error: ${e.slice(0, 300)}`);
        reported.add(e);
      }
      if (Date.now() - lastReport >= 60_000) {
        lastReport = Date.now();
        const s = samples[samples.length - 1];
        const ops = Object.values(workload.stats.ops).reduce((n, o) => n + o.count, 0);
        log(`${minute().toFixed(1)} min: ${ops} ops, ${workload.stats.errors} errors, ${watchers.reduce((n, w) => n + w.stats.events, 0)} watch events, rss ${s ? (s.rssBytes / 2 ** 20).toFixed(1) : '?'} MiB`);
      }
    }

    await workload.stop();
    const durationMinutes = minute();
    clearInterval(phaseTimer);
    clearInterval(sampleTimer);
    await Promise.all(watchers.map(w => w.stop()));
    agent.destroy();
    // connections close, the apiserver's watch ends run; then no client is connected
    await sleep(5000);
    const after = await snapshot();

    const warmupMinutes = options.warmupMinutes ?? Math.min(options.minutes / 2, options.historySeconds / 60 + 1);
    const steady = samples.filter(s => s.minute >= warmupMinutes);
    const slope = (pick: (s: MemorySample) => number | undefined) =>
      linearSlope(steady.filter(s => pick(s) !== undefined).map(s => ({ x: s.minute, y: pick(s)! / 1024 })));
    const latency: Record<string, { p50: number; p99: number; max: number }> = {};
    for (const [op, s] of Object.entries(workload.stats.ops)) {
      latency[op] = { p50: percentile(s.latencyMs, 50), p99: percentile(s.latencyMs, 99), max: Math.max(0, ...s.latencyMs) };
      s.latencyMs = [];
    }
    const totals = { events: 0, bookmarks: 0, resumes: 0, relists: 0, errorCount: 0 };
    for (const w of watchers) {
      totals.events += w.stats.events;
      totals.bookmarks += w.stats.bookmarks;
      totals.resumes += w.stats.resumes;
      totals.relists += w.stats.relists;
      totals.errorCount += w.stats.errorCount;
    }
    const diff: Record<string, number> = { fds: after.fds - before.fds, sockets: after.sockets - before.sockets };
    for (const type of new Set([...Object.keys(before.resources), ...Object.keys(after.resources)])) {
      diff[type] = (after.resources[type] ?? 0) - (before.resources[type] ?? 0);
    }

    const stopping = Date.now();
    await apiserver.stop(20_000);
    const exit = await apiserver.exited;

    const errors = workload.stats.errors + totals.errorCount;
    const reasons: string[] = [];
    if (errors > 0) reasons.push(`${errors} errors`);
    if (diff.sockets > 0) reasons.push(`${diff.sockets} more open sockets after the load than before`);
    if ((diff.Timeout ?? 0) > 0) reasons.push(`${diff.Timeout} more timers after the load than before`);
    if (exit.code !== 0) reasons.push(`exit code ${exit.code} on SIGTERM`);
    const heapSlope = slope(s => s.heapUsedBytes);
    // Flat: under 1 % of the starting heap per 10 minutes. Judged on 10 minutes or more of steady
    // state only: the watch history is trimmed in steps (a saw tooth of a few MiB), which a
    // shorter window turns into a slope either way.
    const steadyMinutes = durationMinutes - warmupMinutes;
    const memoryJudged = steadyMinutes >= 10;
    if (memoryJudged && heapSlope * 10 > (before.heapUsedBytes / 1024) * 0.01) reasons.push(`heap grows ${heapSlope.toFixed(1)} KiB/min`);
    return {
      startedAt,
      options,
      node: process.version,
      machine: { cpus: os.cpus().length, loadAverageAtStart, loadAverageAtEnd: os.loadavg() },
      durationMinutes,
      workload: { ...workload.stats, opsPerSecond: Object.values(workload.stats.ops).reduce((n, o) => n + o.count, 0) / (durationMinutes * 60), latency },
      watchers: { count: watchers.length, totals, errors: watchers.flatMap(w => w.stats.errors).slice(0, 20) },
      phaseChanges,
      ...(outage ? { outage } : {}),
      memory: { samples, rssSlopeKiBPerMin: slope(s => s.rssBytes), heapUsedSlopeKiBPerMin: heapSlope, warmupMinutes, judged: memoryJudged },
      handles: { before, after, diff },
      shutdown: { exitCode: exit.code, seconds: (exit.at - stopping) / 1000 },
      errors,
      verdict: { pass: reasons.length === 0, reasons },
    };
  } finally {
    clearInterval(phaseTimer);
    clearInterval(sampleTimer);
    await Promise.all(watchers.map(w => w.stop()));
    agent.destroy();
    await apiserver.stop(5000);
    emulator.setFault('none');
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
