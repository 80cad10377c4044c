import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { coreServices, createServiceFactory, type RootLoggerService } from '@backstage/backend-plugin-api';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult, type PolicyDecision } from '@backstage/plugin-permission-common';
import { startSystem, type System } from '@internal/e2e';
import { databasesPlugin } from '../plugin';
import { createDatabasesInstanceConditionalDecision, databasesInstanceConditions } from '../permissions/rules';

/** Catalog ownership of the test users (what `userInfo` answers). */
export const OWNERSHIP: Record<string, string[]> = {
  'user:default/alice': ['user:default/alice', 'group:default/team-a'],
  'user:default/bob': ['user:default/bob', 'group:default/team-b'],
  'user:default/carol': ['user:default/carol', 'group:default/platform'],
};

/** "Teams manage their own databases": everyone reads, owners write, carol reads only. */
function policy(name: string, userEntityRef: string): PolicyDecision {
  if (name === 'databases.instance.read') return { result: AuthorizeResult.ALLOW };
  if (userEntityRef === 'user:default/carol') return { result: AuthorizeResult.DENY };
  return createDatabasesInstanceConditionalDecision(
    { type: 'resource', name, attributes: {}, resourceType: 'databases-instance' } as any,
    databasesInstanceConditions.isOwner({ owners: OWNERSHIP[userEntityRef] ?? [userEntityRef] }),
  );
}

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
 * emulator; the permission policy above; every log line recorded), as plugin.test.ts does.
 */
export async function startHostileBackend(): Promise<HostileBackend> {
  const system = await startSystem({ seed: true });
  system.emulator.operators.settle();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'databases-hostile-'));
  const knex: Knex = knexFactory({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'history.sqlite') }, useNullAsDefault: true });
  const logs: LogSink = { lines: [] };
  const backend = await startTestBackend({
    features: [
      databasesPlugin,
      createServiceFactory({ service: coreServices.rootLogger, deps: {}, factory: () => recordingRootLogger(logs) }),
      mockServices.rootConfig.factory({
        data: {
          databases: {
            clusters: [
              {
                name: 'local',
                url: system.emulator.url,
                caData: system.emulator.certs.clusterCa.certPem,
                authProvider: 'serviceAccount',
                serviceAccountToken: 'backstage-backend-token',
              },
            ],
            requestTimeoutMs: 5000,
          },
        },
      }),
      mockServices.database.factory({ knex }),
      mockServices.userInfo.mock({
        getUserInfo: async (c: any) => ({
          userEntityRef: c.principal.userEntityRef,
          ownershipEntityRefs: OWNERSHIP[c.principal.userEntityRef] ?? [c.principal.userEntityRef],
        }),
      }).factory,
      mockServices.permissions.mock({
        authorizeConditional: async (queries: any[], opts: any) =>
          queries.map(q => policy(q.permission.name, opts.credentials.principal.userEntityRef)),
        authorize: async (queries: any[], opts: any) =>
          queries.map(q => ({
            result: policy(q.permission.name, opts.credentials.principal.userEntityRef).result === AuthorizeResult.ALLOW ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
          })),
      }).factory,
      catalogServiceMock.factory({
        entities: [
          {
            apiVersion: 'backstage.io/v1alpha1',
            kind: 'Component',
            metadata: { name: 'orders', namespace: 'default', annotations: { 'backstage.io/kubernetes-id': 'orders' } },
            spec: { type: 'service', owner: 'group:default/team-a', lifecycle: 'production' },
          },
        ],
      }),
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
