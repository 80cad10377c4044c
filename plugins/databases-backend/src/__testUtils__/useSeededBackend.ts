import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Knex } from 'knex';
import { afterAll, beforeAll } from '@jest/globals';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { startSystem, type System } from '@internal/e2e';
import { databasesPlugin } from '../plugin';
import { ORDERS_COMPONENT } from './catalogEntities';
import { emulatorCluster } from './emulatorCluster';
import { sqliteKnex } from './sqliteKnex';
import { teamIdentityMocks } from './teamIdentityMocks';

/** One event the plugin handed to the auditor service. */
export interface AuditedEvent {
  eventId: string;
  severityLevel?: string;
  meta?: any;
  outcome: 'success' | 'failure';
  error?: string;
}

/**
 * The databases backend over the seeded emulator and apiserver (the demo's operators settled),
 * with the teams' identities and policy, a SQLite history and an auditor that records what it is
 * handed; started before the calling `describe`'s tests (after `ready`, when given) and stopped
 * after them. Usable in hooks and tests only.
 */
export function useSeededBackend(options: { ready?(system: System): Promise<void> } = {}) {
  const audited: AuditedEvent[] = [];
  let started: { system: System; server: http.Server; knex: Knex; stop(): Promise<void>; dir: string } | undefined;
  beforeAll(async () => {
    const system = await startSystem({ seed: true });
    system.emulator.operators.settle();
    await options.ready?.(system);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'databases-routes-'));
    const knex = sqliteKnex(path.join(dir, 'history.sqlite'));
    const backend = await startTestBackend({
      features: [
        databasesPlugin,
        mockServices.rootConfig.factory({ data: { databases: { clusters: [emulatorCluster(system)], requestTimeoutMs: 5000 } } }),
        mockServices.database.factory({ knex }),
        ...teamIdentityMocks(),
        catalogServiceMock.factory({ entities: [ORDERS_COMPONENT] }),
        mockServices.auditor.mock({
          createEvent: (async (o: any) => {
            const event = { eventId: o.eventId, severityLevel: o.severityLevel, meta: o.meta };
            return {
              success: async () => void audited.push({ ...event, outcome: 'success' }),
              fail: async ({ error }: { error: Error }) => void audited.push({ ...event, outcome: 'failure', error: error.message }),
            };
          }) as any,
        }).factory,
      ],
    });
    started = { system, server: backend.server, knex, stop: () => backend.stop(), dir };
  });
  afterAll(async () => {
    await started?.stop().catch(() => undefined);
    await started?.knex.destroy();
    await started?.system.stop();
    if (started?.dir) rmSync(started.dir, { recursive: true, force: true });
  });
  const now = () => {
    if (!started) throw new Error('the backend is not started yet');
    return started;
  };
  return {
    audited,
    get system() {
      return now().system;
    },
    get server() {
      return now().server;
    },
  };
}
