import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { coreServices, createServiceFactory, type RootLoggerService } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { quiesce, startSystem, type System } from '@internal/e2e';
import { databasesPlugin } from '../plugin';
import { ORDERS_COMPONENT } from './catalogEntities';
import { emulatorCluster } from './emulatorCluster';
import { sqliteKnex } from './sqliteKnex';
import { teamIdentityMocks } from './teamIdentityMocks';

/** The emulator's bookmark interval: how soon an idle cache learns the cluster's resourceVersion. */
const BOOKMARK_MS = 500;

/** Every line the backend logged (any plugin, any level), formatted with its fields. */
export interface LogSink {
  lines: string[];
}

function recordingRootLogger(sink: LogSink, meta: Record<string, unknown> = {}): RootLoggerService {
  const log = (level: string) => (message: string, fields?: unknown) => {
    sink.lines.push(`${level} ${JSON.stringify(meta)} ${message} ${fields === undefined ? '' : JSON.stringify(fields, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v))}`);
  };
  return {
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    child: (more: Record<string, unknown>) => recordingRootLogger(sink, { ...meta, ...more }),
  };
}

/** The system (emulator + apiserver) and the databases backend in front of it, on loopback. */
export interface HostileBackend {
  system: System;
  server: http.Server;
  port: number;
  logs: LogSink;
  stop(): Promise<void>;
}

/**
 * Starts the demo system and a test backend with the databases plugin (one cluster, the
 * emulator; the identities and permission policy of teamIdentityMocks; every log line
 * recorded), as plugin.test.ts does. `pauseOperators`: the operators settle and stop, and the
 * apiserver has written what it writes itself, before the backend starts (see quiesce).
 */
export async function startHostileBackend(options: { pauseOperators?: boolean } = {}): Promise<HostileBackend> {
  // bookmarks carry the cluster's resourceVersion to idle watches (see quiesce)
  const system = await startSystem({ seed: true, bookmarkIntervalMs: BOOKMARK_MS });
  if (options.pauseOperators) await quiesce(system, BOOKMARK_MS);
  else system.emulator.operators.settle();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'databases-hostile-'));
  const knex = sqliteKnex(path.join(dir, 'history.sqlite'));
  const logs: LogSink = { lines: [] };
  const backend = await startTestBackend({
    features: [
      databasesPlugin,
      createServiceFactory({ service: coreServices.rootLogger, deps: {}, factory: () => recordingRootLogger(logs) }),
      mockServices.rootConfig.factory({ data: { databases: { clusters: [emulatorCluster(system)], requestTimeoutMs: 5000 } } }),
      mockServices.database.factory({ knex }),
      ...teamIdentityMocks(),
      catalogServiceMock.factory({ entities: [ORDERS_COMPONENT] }),
    ],
  });
  const server = backend.server;
  return {
    system,
    server,
    port: (server.address() as { port: number }).port,
    logs,
    stop: async () => {
      await backend.stop().catch(() => undefined);
      await knex.destroy();
      await system.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
