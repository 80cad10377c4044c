import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Router from 'express-promise-router';
import request from 'supertest';
import { describe, expect, it } from '@jest/globals';
import { mockServices } from '@backstage/backend-test-utils';
import { MiddlewareFactory } from '@backstage/backend-defaults/rootHttpRouter';
import { addReadyRoute } from './addReadyRoute';
import type { InstanceRequests } from './InstanceRequests';

describe('addReadyRoute: a wait counts as one of the backend\'s long-lived answers', () => {
  it('refuses with 503 once the bound is reached, and frees its place when the waiting client leaves', async () => {
    let release: (() => void) | undefined;
    const instances = {
      // the first wait never ends by itself: it holds its place until the client goes away
      waitUntilReady: (_c: unknown, _p: unknown, o: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          release = () => reject(new Error('left'));
          o.signal.addEventListener('abort', () => release?.());
        }),
    } as unknown as InstanceRequests;
    const streams = { open: 0 };
    const router = Router();
    addReadyRoute(router, { httpAuth: mockServices.httpAuth(), instances, streams, maxStreams: 1 });
    const app = express().use(router).use(MiddlewareFactory.create({ config: mockServices.rootConfig(), logger: mockServices.logger.mock() }).error());
    const server = app.listen(0);
    try {
      const url = '/clusters/local/namespaces/team-a/instances/orders/ready';
      const first = http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}${url}`);
      first.on('error', () => {}); // destroyed below, on purpose
      await waitFor(() => streams.open === 1);
      const second = await request(server).get(url);
      expect(second.status).toBe(503);
      expect(second.body.error).toMatchObject({ name: 'ServiceUnavailableError', message: expect.stringContaining('1 event streams are open') });
      first.destroy();
      await waitFor(() => streams.open === 0);
      expect(release).toBeDefined();
    } finally {
      server.close();
    }
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in 5 s');
    await new Promise(r => setImmediate(r));
  }
}
