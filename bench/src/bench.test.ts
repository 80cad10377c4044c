import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { BenchResults } from './report/writeResults';

const repoRoot = path.resolve(__dirname, '../..');

/**
 * Every figure of the groups the smoke run covers. The Backstage and browser groups need the
 * backend's start-up (a minute or more) and are left to `yarn bench`; their code is type-checked.
 */
const FIGURES = [
  'start-up: bundle as deployed → /readyz 200',
  'start-up: fork → /readyz 200',
  'start-up: startApiserver() → caches synced',
  'baseline: direct lists of every operator kind p50',
  'list -A JSON p50',
  'list -A JSON p50, uncompressed',
  'list -A JSON p50, HTTP/1.1',
  'list -A JSON p99',
  'list -A JSON / JSON.stringify(same items)',
  'list -A JSON / direct operator lists',
  'list -A Table p50',
  'list -A Table p50, uncompressed',
  'list -A Table p50, HTTP/1.1',
  'list -A Table p99',
  'list -A Table / JSON.stringify(same items)',
  'list -A Table / direct operator lists',
  'list one namespace p99',
  'list -A one label selector p99',
  'memory: RSS growth per instance',
  'memory: RSS growth per instance right after the sync',
  'memory: heap growth per instance',
  'memory: RSS',
  'memory: heap used',
  'watch fan-out: status change → watchers p50',
  'watch fan-out: status change → watchers p99',
  'watch fan-out over HTTP/1.1: status change → watchers p50',
  'watch fan-out over HTTP/1.1: status change → watchers p99',
  'watch fan-out over HTTP/1.1: deliveries missing after 5 s',
  'watch fan-out over HTTP/1.1: first watcher of each change p99',
  'watch fan-out: deliveries missing after 5 s',
  'watch fan-out: first watcher of each change p99',
  "slow watcher: others' delivery p99",
  'slow watcher: apiserver memory growth',
  'slow watcher: cut off by the apiserver',
  'create → operator object written p99',
  'create → 201 answered p99',
  '100 concurrent creates: errors',
  'events: mirror latency p99',
  'events: RSS growth per instance from its events',
  'events: heap growth per instance from its events',
  'events: RSS per instance with events mirrored',
  'events: first mirror of every instance',
];

describe('yarn bench', () => {
  it('runs end to end at a tiny size and writes every figure with a number', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'dbaas-bench-test-'));
    try {
      const run = spawnSync(
        process.execPath,
        [path.join(repoRoot, 'scripts', 'bench.mjs'), '--sizes', '50', '--smoke', '--only', 'startup,list,memory,watch,slow-watcher,events,writes', '--out', out],
        { cwd: repoRoot, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } },
      );
      expect({ status: run.status, stderr: run.status === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ status: 0, stderr: '' });
      const files = readdirSync(out).sort();
      expect(files).toHaveLength(2);
      expect(files).toContain('latest.json');
      const results = JSON.parse(readFileSync(path.join(out, files.find(f => f !== 'latest.json')!), 'utf8')) as BenchResults;
      // latest.json is the plain list of figures, the dated file the whole record
      expect(JSON.parse(readFileSync(path.join(out, 'latest.json'), 'utf8'))).toEqual(results.figures);
      expect(results.errors).toEqual([]);
      expect(results.machine.cpus).toBeGreaterThan(0);
      expect(results.commit).toMatch(/^([0-9a-f]{7}|local)$/);
      expect(results.figures.map(f => f.name).sort()).toEqual([...FIGURES].sort());
      for (const f of results.figures) {
        expect({ name: f.name, size: f.size, finite: Number.isFinite(f.value), unit: typeof f.unit }).toEqual({
          name: f.name,
          size: 50,
          finite: true,
          unit: 'string',
        });
        expect(f.pass === null || typeof f.pass === 'boolean').toBe(true);
        expect(f.pass === null).toBe(f.target === null);
      }
      // lists are timed as the aggregator calls: the apiserver is offered h2 and takes it
      const notes = Object.fromEntries(results.figures.map(f => [f.name, f.note ?? '']));
      expect(notes['list -A JSON p50']).toContain('over HTTP/2');
      expect(notes['list -A Table p50']).toContain('over HTTP/2');
      // the printed lines are the same figures, each with its mark when it has a target
      for (const f of results.figures) {
        expect(run.stdout).toContain(f.name);
      }
      expect(run.stdout).toMatch(/\n\d+ figures: \d+ of \d+ targets met, \d+ missed\n/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
