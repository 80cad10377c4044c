import type { Iterations } from '../figures/types';

/** Figure groups, in the order they run for each size. */
export const GROUPS = ['startup', 'list', 'memory', 'watch', 'slow-watcher', 'events', 'writes', 'apply', 'members', 'backups', 'backstage', 'frontend'] as const;
export type Group = (typeof GROUPS)[number];

/** What `yarn bench` was asked to do. */
export interface BenchOptions {
  sizes: number[];
  only: Group[];
  iterations: Iterations;
  /** Where result JSON goes (default bench/results); `--no-save` writes nothing. */
  outDir?: string;
  save: boolean;
  /** Write apiserver CPU profiles (`.cpuprofile`) here. */
  cpuProfileDir?: string;
  /** Print this results file as a Markdown table instead of running. */
  markdown?: string;
  help: boolean;
}

export const USAGE = `yarn bench [options]
  --sizes 1000,10000,50000   population sizes (instances over 5 engines and 50 namespaces)
  --only list,watch,...      figure groups: ${GROUPS.join(', ')}
  --quick                    fewer repetitions (figures are noisier)
  --smoke                    checks the harness runs: 2 repetitions, 20 watchers, tiny bursts
  --iterations N             exactly N timed repetitions per figure (and 1 warm-up)
  --out DIR                  results directory (default bench/results)
  --no-save                  print only, write no JSON
  --cpu-prof DIR             write the apiserver's CPU profiles into DIR
  --markdown FILE            print a results file as a Markdown table (no run)
`;

const LOADS = { watchers: 1000, eventStreams: 500, changeBurst: 8000, historyFill: 10_000, settleMs: 180_000 };
const FULL: Iterations = { warmup: 5, warmupMs: 4000, large: 60, small: 300, watchRounds: 20, ...LOADS };
const QUICK: Iterations = { warmup: 2, warmupMs: 1000, large: 15, small: 60, watchRounds: 6, ...LOADS };
/** Checks the harness, not the system: tiny loads, so no target means anything. */
const SMOKE: Iterations = { warmup: 1, warmupMs: 0, large: 2, small: 2, watchRounds: 2, watchers: 20, eventStreams: 10, changeBurst: 100, historyFill: 100, settleMs: 1000 };

/** Parses `yarn bench` arguments; throws with a message naming the bad one. */
export function parseBenchArgs(argv: string[]): BenchOptions {
  const out: BenchOptions = {
    sizes: [1000, 10_000, 50_000],
    only: [...GROUPS],
    iterations: { ...FULL },
    save: true,
    help: false,
  };
  let explicitIterations: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--sizes':
        out.sizes = value().split(',').map(s => {
          const n = Number(s.replace(/_/g, ''));
          if (!Number.isInteger(n) || n < 1) throw new Error(`--sizes: not a positive integer: ${s}`);
          return n;
        });
        break;
      case '--only':
        out.only = value().split(',').map(g => {
          if (!(GROUPS as readonly string[]).includes(g)) throw new Error(`--only: unknown group ${g} (groups: ${GROUPS.join(', ')})`);
          return g as Group;
        });
        break;
      case '--quick':
        out.iterations = { ...QUICK };
        break;
      case '--smoke':
        out.iterations = { ...SMOKE };
        break;
      case '--iterations': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) throw new Error('--iterations: not a positive integer');
        explicitIterations = n;
        break;
      }
      case '--out':
        out.outDir = value();
        break;
      case '--no-save':
        out.save = false;
        break;
      case '--cpu-prof':
        out.cpuProfileDir = value();
        break;
      case '--markdown':
        out.markdown = value();
        break;
      case '--help':
      case '-h':
        out.help = true;
        break;
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  if (explicitIterations !== undefined) {
    out.iterations = { ...out.iterations, warmup: 1, large: explicitIterations, small: explicitIterations, watchRounds: explicitIterations };
  }
  return out;
}
