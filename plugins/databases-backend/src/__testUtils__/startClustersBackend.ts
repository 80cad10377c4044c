import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { coreServices, createServiceFactory } from '@backstage/backend-plugin-api';
import { mockCredentials, mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { databasesPlugin } from '../plugin';
import { ORDERS_COMPONENT } from './catalogEntities';
import { recordingRootLogger, type LogLines } from './recordingRootLogger';
import { sqliteKnex } from './sqliteKnex';
import { teamIdentityMocks } from './teamIdentityMocks';

/** A databases backend over the given clusters, on loopback. */
export interface ClustersBackend {
  port: number;
  logs: LogLines;
  /** GET (or another method) under /api/databases as `user` (e.g. `alice`). */
  call(user: string, pathname: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/**
 * Starts the real backend (startTestBackend, sqlite history, the users and policy of
 * teamIdentityMocks, the catalog holding `orders`) with `databases` as its config, every log
 * line recorded.
 */
type JsonObject = NonNullable<NonNullable<Parameters<typeof mockServices.rootConfig.factory>[0]>['data']>;

export async function startClustersBackend(databases: JsonObject): Promise<ClustersBackend> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'databases-clusters-'));
  const knex = sqliteKnex(path.join(dir, 'history.sqlite'));
  const logs: LogLines = { lines: [] };
  const backend = await startTestBackend({
    features: [
      databasesPlugin,
      createServiceFactory({ service: coreServices.rootLogger, deps: {}, factory: () => recordingRootLogger(logs) }),
      mockServices.rootConfig.factory({ data: { databases } }),
      mockServices.database.factory({ knex }),
      ...teamIdentityMocks(),
      catalogServiceMock.factory({ entities: [ORDERS_COMPONENT] }),
    ],
  });
  const port = (backend.server.address() as AddressInfo).port;
  return {
    port,
    logs,
    async call(user, pathname, init = {}) {
      const res = await fetch(`http://127.0.0.1:${port}/api/databases${pathname}`, {
        method: init.method ?? 'GET',
        headers: {
          Authorization: mockCredentials.user.header(`user:default/${user}`),
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: res.status, body: await res.json() };
    },
    async stop() {
      await backend.stop().catch(() => undefined);
      await knex.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
