import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomObjectsApi, KubeConfig, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { makeInstance } from './__testutils__/fixtures';
import { startTestServer, type TestServer } from './__testutils__/testServer';

const A = '/apis/dbaas.platform.dev/v1alpha1/namespaces/team-a/databaseinstances';

/** Polls until `cond` holds or fails the test after `ms`. */
async function eventually(cond: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise(r => setTimeout(r, 20));
  }
}

describe('a real @kubernetes/client-node informer', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists, watches add/update/delete, and recovers from a 410 by re-listing', async () => {
    t.store.upsert(makeInstance({ name: 'existing' }));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'test', server: `https://127.0.0.1:${t.port}`, caData: Buffer.from(t.ca).toString('base64') }],
      users: [{ name: 'alice', token: 'alice' }],
      contexts: [{ name: 'test', cluster: 'test', user: 'alice' }],
      currentContext: 'test',
    });
    const api = kc.makeApiClient(CustomObjectsApi);
    let lists = 0;
    const informer = makeInformer<KubernetesObject>(kc, A, async () => {
      lists++;
      return api.listNamespacedCustomObject({
        group: 'dbaas.platform.dev',
        version: 'v1alpha1',
        namespace: 'team-a',
        plural: 'databaseinstances',
      });
    });
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', o => seen.push(`add:${o.metadata!.name}`));
    informer.on('update', o => seen.push(`update:${o.metadata!.name}`));
    informer.on('delete', o => seen.push(`delete:${o.metadata!.name}`));
    informer.on('error', e => errors.push(e));
    await informer.start();
    try {
      await eventually(() => seen.includes('add:existing'));
      // the watch is open once the server holds a subscription
      await eventually(() => t.store.watchers_count() === 1);

      t.store.upsert(makeInstance({ name: 'fresh' }));
      t.store.upsert(makeInstance({ name: 'fresh', phase: 'Updating' }));
      t.store.remove('team-a', 'existing');
      await eventually(() => seen.includes('delete:existing'));
      expect(seen).toEqual(['add:existing', 'add:fresh', 'update:fresh', 'delete:existing']);
      expect(informer.list('team-a').map(o => o.metadata!.name)).toEqual(['fresh']);

      // the next watch start fails with 410: the informer must re-list and carry on
      t.store.expireNextWatch();
      const listsBefore = lists;
      t.app.control.endWatches();
      await eventually(() => lists > listsBefore && t.store.watchers_count() === 1);
      expect(t.store.expiredWatches).toBe(1);
      t.store.upsert(makeInstance({ name: 'after-410' }));
      await eventually(() => seen.includes('add:after-410'));
      expect(errors).toEqual([]);
      expect(informer.list('team-a').map(o => o.metadata!.name).sort()).toEqual(['after-410', 'fresh']);
      // every watch resumed from a known RV: the one after the relist starts from the list RV
      expect(t.store.watchCalls.every(rv => rv !== undefined)).toBe(true);
    } finally {
      await informer.stop();
    }
  }, 20_000);
});
