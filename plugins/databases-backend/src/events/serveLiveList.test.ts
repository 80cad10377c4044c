import express from 'express';
import Router from 'express-promise-router';
import request from 'supertest';
import { describe, expect, it } from '@jest/globals';
import { mockServices } from '@backstage/backend-test-utils';
import { MiddlewareFactory } from '@backstage/backend-defaults/rootHttpRouter';
import type { PortalInstance } from '@internal/plugin-databases-common';
import type { InstanceCaller } from '../instances/InstanceRequests';
import type { InstanceAuthorizer } from '../permissions/InstanceAuthorizer';
import type { SelectedListWatch } from '../kube/SelectedListWatch';
import { serveLiveList, type LiveListDeps } from './serveLiveList';

/**
 * A route over serveLiveList with a read of the instance that waits until it is released and a
 * list that records when it started: what order things happen in, and what is sent.
 */
function routeWith(allowed: boolean, independent: boolean) {
  const steps: string[] = [];
  let release!: () => void;
  const read = new Promise<void>(r => (release = r));
  const deps: LiveListDeps = {
    readInstance: async (_req, beside) => {
      const p = { cluster: 'local', namespace: 'team-a', name: 'orders-db' };
      const who = { as: {}, credentials: {}, actor: 'user:default/alice' } as unknown as InstanceCaller;
      beside?.(p, who);
      steps.push('read started');
      await read;
      steps.push('read done');
      return { p, who, resource: { cluster: 'local', instance: {} } as PortalInstance };
    },
    authorizer: { allows: async () => allowed } as unknown as InstanceAuthorizer,
    streams: { open: 0 },
    maxStreams: 10,
  };
  const watch = () =>
    ({
      list: async () => {
        steps.push('list started');
        return { items: ['run-1', 'run-2'] };
      },
    }) as unknown as SelectedListWatch<string, unknown>;
  const router = Router();
  router.get('/backups', (req, res) => serveLiveList(req, res, deps, { watch, frames: { list: 'backups', change: 'backup' }, independent }));
  const app = express().use(router).use(MiddlewareFactory.create({ config: mockServices.rootConfig(), logger: mockServices.logger.mock() }).error());
  return { app, steps, release };
}

describe('serveLiveList', () => {
  it('lists an independent kind beside the read of the instance, and answers once the read and the policy allowed it', async () => {
    const { app, steps, release } = routeWith(true, true);
    const answer = request(app).get('/backups').then(r => r);
    while (!steps.includes('read started')) await new Promise(r => setImmediate(r));
    expect(steps).toEqual(['list started', 'read started']);
    release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ cluster: 'local', items: ['run-1', 'run-2'] });
  });

  it('sends nothing of a list made beside the read when the policy refuses', async () => {
    const { app, steps, release } = routeWith(false, true);
    release();
    const res = await request(app).get('/backups');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('run-1');
    expect(steps[0]).toBe('list started');
  });

  it('lists after the read where the list needs the instance', async () => {
    const { app, steps, release } = routeWith(true, false);
    release();
    expect((await request(app).get('/backups')).status).toBe(200);
    expect(steps).toEqual(['read started', 'read done', 'list started']);
  });
});
