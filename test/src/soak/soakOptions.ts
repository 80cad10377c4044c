/** What `yarn soak` runs. */
export interface SoakOptions {
  /** Length of the loaded phase (default 30). */
  minutes: number;
  /** Operations per second of the workload (default 20). */
  rate: number;
  /** Long-lived watchers through the aggregation layer (default 20). */
  watchers: number;
  /** Instances the workload keeps alive beside the demo ones (default 30). */
  population: number;
  /** Seconds between memory samples of the apiserver (default 10). */
  sampleSeconds: number;
  /** Seconds between phase changes forced on demo instances (default 5). */
  phaseChangeSeconds: number;
  /** A Kubernetes API outage at mid-run (storage unavailable) of this many seconds; 0 = none (default). */
  outageSeconds: number;
  /**
   * The apiserver's watch history window (`--watch-history-seconds`, default 600 as deployed).
   * Its memory grows until the window is full: the memory slope is taken after it (shorten it
   * for short runs).
   */
  historySeconds: number;
  /** `--watch-history-size` of the apiserver (events kept, default 10000 as deployed). */
  historySize: number;
  /**
   * Minutes before the memory slope is taken (default: until the history window is full plus
   * a minute, at most half the run). A short run with a small `--history-size` can use less.
   */
  warmupMinutes?: number;
  /** Where the result JSON goes (default test/soak-results/soak-<time>.json). */
  out?: string;
  seed: number;
}

export const DEFAULT_SOAK: SoakOptions = {
  minutes: 30,
  rate: 20,
  watchers: 20,
  population: 30,
  sampleSeconds: 10,
  phaseChangeSeconds: 5,
  outageSeconds: 0,
  historySeconds: 600,
  historySize: 10_000,
  seed: 8,
};

const NUMERIC: Record<string, keyof SoakOptions> = {
  '--minutes': 'minutes',
  '--rate': 'rate',
  '--watchers': 'watchers',
  '--population': 'population',
  '--sample-seconds': 'sampleSeconds',
  '--phase-change-seconds': 'phaseChangeSeconds',
  '--outage-seconds': 'outageSeconds',
  '--history-seconds': 'historySeconds',
  '--history-size': 'historySize',
  '--warmup-minutes': 'warmupMinutes',
  '--seed': 'seed',
};

/** Parses `--name value` flags; returns the options or every problem. Pure. */
export function parseSoakOptions(argv: string[]): { options: SoakOptions; errors: string[] } {
  const options: SoakOptions = { ...DEFAULT_SOAK };
  const errors: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    if (flag === '--out') {
      options.out = value;
    } else if (NUMERIC[flag]) {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) errors.push(`${flag} wants a number ≥ 0, got ${JSON.stringify(value)}`);
      else (options as any)[NUMERIC[flag]] = n;
    } else {
      errors.push(`unknown flag ${argv[i]} (known: ${[...Object.keys(NUMERIC), '--out'].join(', ')})`);
    }
  }
  if (options.minutes <= 0) errors.push('--minutes must be more than 0');
  if (options.rate <= 0) errors.push('--rate must be more than 0');
  if (options.sampleSeconds < 1) errors.push('--sample-seconds must be at least 1');
  return { options, errors };
}
