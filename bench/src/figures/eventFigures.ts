import { makeFigure, type Figure } from '../report/Figure';
import { summarize } from '../report/stats';
import { compactionNote, reducerNote } from './memoryFigures';
import type { MemoryUsage } from '../system/ApiserverProcess';
import type { SizeContext } from './types';

const EVENTS = { group: '', version: 'v1', plural: 'events' };
const KiB = 1024;
const MiB = 1024 * 1024;
/** Mirrors written at most this long to catch up with the first events of every instance. */
const CATCH_UP_MS = 600_000;
/** Unrelated events written per timed round: the rest of a busy cluster goes on meanwhile. */
const BACKGROUND_PER_ROUND = 5;

const oldSpace = (m: MemoryUsage) => {
  const old = m.spaces?.old_space;
  return old ? `; old space ${(old.size / MiB).toFixed(0)} MiB committed, ${(old.used / MiB).toFixed(0)} used` : '';
};

const kubeTime = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A core/v1 Event as kubelet writes it about `pod` (BackOff of its container). */
function podEvent(namespace: string, pod: string, name: string) {
  const now = kubeTime();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod, namespace },
    reason: 'BackOff',
    message: `Back-off restarting failed container in pod ${pod}`,
    type: 'Warning',
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
    source: { component: 'kubelet', host: 'bench-node' },
  };
}

/**
 * Events: every instance gets an event about one of its pods and the cluster as many about pods
 * that are no instance's (what a cluster of that size writes within the hour kube keeps them);
 * once the apiserver has mirrored them all, its memory; then timed rounds, each a new event
 * about one instance's pod (amid unrelated ones) until its mirror on the instance is written,
 * as a watcher of the instance's events (`kubectl get events -w`, the portal) sees it.
 */
export async function eventFigures(ctx: SizeContext): Promise<Figure[]> {
  const { size, cluster, apiserver, instances } = ctx;
  const store = cluster.emulator.store;
  const before = await apiserver.memory({ settleMs: ctx.iterations.settleMs });
  let mirrored = 0;
  const seen = new Map<string, () => void>();
  const sub = store.watch(undefined, e => {
    const o = e.object as any;
    if (e.type !== 'ADDED' || o?.involvedObject?.kind !== 'DatabaseInstance') return;
    mirrored++;
    seen.get(o.related?.name)?.();
  });
  try {
    const t0 = performance.now();
    for (const [i, inst] of instances.entries()) {
      store.create(EVENTS, podEvent(inst.namespace, `${inst.name}-0`, `${inst.name}-0.bench-${i}`));
      store.create(EVENTS, podEvent(inst.namespace, `unrelated-${i}-0`, `unrelated-${i}-0.bench`));
    }
    while (mirrored < size) {
      if (performance.now() - t0 > CATCH_UP_MS) throw new Error(`only ${mirrored} of ${size} events mirrored in ${CATCH_UP_MS / 1000} s`);
      await new Promise(r => setTimeout(r, 200));
    }
    const catchUpS = (performance.now() - t0) / 1000;
    const after = await apiserver.memory({ settleMs: ctx.iterations.settleMs });
    const rounds = Math.max(50, ctx.iterations.watchRounds);
    const latencies: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const inst = instances[(r * 7919) % instances.length];
      const pod = `${inst.name}-1`;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the mirror of ${pod}'s event did not arrive in 10 s`)), 10_000);
        seen.set(pod, () => {
          clearTimeout(timer);
          resolve(performance.now());
        });
      });
      for (let b = 0; b < BACKGROUND_PER_ROUND; b++)
        store.create(EVENTS, podEvent(inst.namespace, `unrelated-r${r}-${b}`, `unrelated-r${r}-${b}.bench`));
      const start = performance.now();
      store.create(EVENTS, podEvent(inst.namespace, pod, `${pod}.bench-round-${r}`));
      latencies.push((await arrived) - start);
      seen.delete(pod);
      // the next round's event is about another instance: this one's mirror is not rewritten
      store.delete(EVENTS, inst.namespace, `${pod}.bench-round-${r}`);
    }
    const { p50, p99, n } = summarize(latencies);
    const perInstance = (after.rss - before.rss) / size / KiB;
    return [
      makeFigure('events: mirror latency p99', size, p99, 'ms', size >= 50_000 ? { op: '<=', value: 100 } : undefined, `p50 ${p50.toFixed(1)} ms over ${n} events, each amid ${BACKGROUND_PER_ROUND} unrelated ones`),
      makeFigure('events: RSS growth per instance from its events', size, perInstance, 'KiB', undefined,
        `${size} instance events and ${size} unrelated ones: RSS ${(after.rss / MiB).toFixed(0)} MiB vs ${(before.rss / MiB).toFixed(0)} MiB before`),
      // what the mirror keeps (after full GCs), apart from what the process holds on to from the burst
      makeFigure('events: heap growth per instance from its events', size, (after.heapUsed - before.heapUsed) / size / KiB, 'KiB', undefined,
        `heapUsed ${(after.heapUsed / MiB).toFixed(0)} MiB vs ${(before.heapUsed / MiB).toFixed(0)} MiB before; ` +
          // where the rest of the RSS growth is: V8's reserved heap, or memory outside it (buffers, sockets)
          `heapTotal ${(after.heapTotal / MiB).toFixed(0)} vs ${(before.heapTotal / MiB).toFixed(0)} MiB, external ${(after.external / MiB).toFixed(0)} vs ${(before.external / MiB).toFixed(0)} MiB` +
          // committed but free old space is what a burst fragmented and no memory-reducing collection gave back
          `${oldSpace(after)}`),
      ...(ctx.emptyMemory
        ? [
            makeFigure('events: RSS per instance with events mirrored', size, (after.rss - ctx.emptyMemory.settled.rss) / size / KiB, 'KiB', size >= 50_000 ? { op: '<=', value: 16 } : undefined,
              `against the apiserver with no instance (the memory figure's baseline), both after V8's memory reducer (here it ${reducerNote(after)}); ${compactionNote(after)}`),
          ]
        : []),
      makeFigure('events: first mirror of every instance', size, catchUpS, 's', undefined, `${mirrored} mirrors written`),
    ];
  } finally {
    sub.stop();
  }
}
