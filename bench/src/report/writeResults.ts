import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from './Figure';

/** What `bench/results/*.json` holds. */
export interface BenchResults {
  date: string;
  commit: string;
  command: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryMiB: number;
    node: string;
    platform: string;
    /** Load averages when the run ended: these machines are shared. */
    loadavg: number[];
  };
  figures: Figure[];
  /** Figure groups that failed to run (the harness broke), with their error. */
  errors: Array<{ group: string; size: number; error: string }>;
}

/** Machine facts recorded with every run. */
export function machineInfo(): BenchResults['machine'] {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryMiB: Math.round(os.totalmem() / 1048576),
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    loadavg: os.loadavg().map(l => Math.round(l * 100) / 100),
  };
}

/**
 * Writes `<dir>/<ISO date>-<commit>.json` (the whole record) and `<dir>/latest.json` (its
 * figures: a list of `{name, size, value, unit, target, pass}`, as issue 7 asks, so runs compare
 * with a plain diff); returns the dated file's path.
 */
export function writeResults(dir: string, results: BenchResults): string {
  mkdirSync(dir, { recursive: true });
  const stamp = results.date.replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
  const file = path.join(dir, `${stamp}-${results.commit}.json`);
  const text = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(file, text);
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(results.figures, null, 2)}\n`);
  return file;
}
