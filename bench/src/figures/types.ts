import type { ClientProcess } from '../client/ClientProcess';
import type { PopulatedInstance } from '../population/populate';
import type { Figure } from '../report/Figure';
import type { BenchCluster } from '../system/BenchCluster';
import type { ApiserverProcess } from '../system/ApiserverProcess';
import type { MemoryPair } from './memoryFigures';

/** How many timed repetitions a figure makes (after `warmup` untimed ones). */
export interface Iterations {
  warmup: number;
  /**
   * Timed request loops also warm up for this long (ms), going round their plan untimed. V8
   * optimises a request path only once it has run often enough: after a few hundred requests,
   * both processes were still compiling it on their helper threads, on the cores the timed
   * requests needed (docs/performance.md, "the measuring client and the warm-up").
   */
  warmupMs: number;
  /** For requests that move the whole list (tens of ms each and more). */
  large: number;
  /** For small requests (one namespace, one selector, one entity). */
  small: number;
  /** Watch rounds (status changes) per watch figure. */
  watchRounds: number;
  /** Concurrent watchers of the fan-out figure (the 1,000). */
  watchers: number;
  /** Concurrent event streams of the Backstage SSE figure (the 500). */
  eventStreams: number;
  /** Changes pushed past a watcher that never reads (enough to overflow what a watch may buffer). */
  changeBurst: number;
  /** Changes written first to fill the apiserver's watch history (its default 10,000 events). */
  historyFill: number;
  /** A settled memory figure waits at most this long for V8's memory reducer (afterMemoryReducer). */
  settleMs: number;
}

/** What every figure group gets for one population size. */
export interface SizeContext {
  size: number;
  cluster: BenchCluster;
  apiserver: ApiserverProcess;
  instances: PopulatedInstance[];
  /** The measuring client (its own process). */
  client: ClientProcess;
  /** The apiserver's memory with no instance, when the memory group measured it. */
  emptyMemory?: MemoryPair;
  iterations: Iterations;
  /** Progress lines (stderr), so long runs show where they are. */
  log(message: string): void;
}

/** A group of figures measured against one running system. */
export type FigureGroup = (ctx: SizeContext) => Promise<Figure[]>;
