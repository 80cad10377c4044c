import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HistoryStore } from './HistoryStore';
import { sqliteKnex } from '../__testUtils__/sqliteKnex';

const MIGRATIONS = path.resolve(__dirname, '../../migrations');
const KEY = { cluster: 'local', namespace: 'team-a', name: 'orders-db' };

/** Two backend replicas = two connections to one database file, each with its own store. */
describe('HistoryStore shared by backend replicas', () => {
  let dir: string;
  let replicas: Knex[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'databases-history-'));
    const file = path.join(dir, 'history.sqlite');
    replicas = [sqliteKnex(file), sqliteKnex(file)];
    await replicas[0].migrate.latest({ directory: MIGRATIONS });
  });
  afterAll(async () => {
    await Promise.all(replicas.map(k => k.destroy()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a transition seen by both replicas at the same resourceVersion once', async () => {
    const [a, b] = replicas.map(k => new HistoryStore(k));
    const seen = [
      ['Pending', '10'],
      ['Provisioning', '11'],
      ['Ready', '14'],
      ['Updating', '20'],
      ['Ready', '23'],
    ] as const;
    for (const [phase, rv] of seen) {
      const results = await Promise.all([a, b].map(s => s.recordPhase(KEY, phase, { resourceVersion: rv })));
      // exactly one replica stored it
      expect(results.filter(Boolean)).toHaveLength(1);
    }
    const timeline = (await a.history(KEY)).transitions.map(t => `${t.from ?? '-'}→${t.to}`);
    expect(timeline).toEqual(['-→Pending', 'Pending→Provisioning', 'Provisioning→Ready', 'Ready→Updating', 'Updating→Ready']);
    expect((await b.history(KEY)).transitions).toEqual((await a.history(KEY)).transitions);
  });

  it('a relist after a restart (same phase, new resourceVersion) adds nothing', async () => {
    // its own instance: the tests run in any order
    const key = { ...KEY, name: 'relisted-db' };
    const before = new HistoryStore(replicas[0]);
    expect(await before.recordPhase(key, 'Provisioning', { resourceVersion: '40' })).toBeDefined();
    expect(await before.recordPhase(key, 'Ready', { resourceVersion: '41' })).toBeDefined();
    const restarted = new HistoryStore(replicas[1]);
    expect(await restarted.recordPhase(key, 'Ready', { resourceVersion: '99' })).toBeUndefined();
    expect((await restarted.history(key)).transitions.map(t => t.to)).toEqual(['Provisioning', 'Ready']);
  });
});
