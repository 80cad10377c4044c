/* eslint-disable jest/expect-expect -- expectStatus() asserts */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ANNOTATION_DELETION_PROTECTION } from '@internal/plugin-databases-common';
import { causeFields, expectStatus } from '../__testutils__/expectStatus';
import { startTestServer, type TestServer } from '../__testutils__/testServer';
import { INSTANCES, json, seedInstance } from '../__testutils__/writeFixtures';

const MARIADBS = { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'mariadbs', kind: 'MariaDB' };

describe('DELETE databaseinstances (delete, deletecollection)', () => {
  let t: TestServer;
  let n = 0;
  let name = '';

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    name = `del-${++n}`;
    seedInstance(t, 'mariadb', name);
    t.writer.calls.length = 0;
    t.writer.fail = () => undefined;
  });

  const del = (body?: string, query = '', target = name) =>
    t.request(`${INSTANCES}/${target}${query}`, json('DELETE', body));

  it('deletes the operator object in the background, guarded by the uid and resourceVersion it checked, and answers Status Success', async () => {
    const seeded = t.writer.objectOf(MARIADBS, 'team-a', name)!;
    const uid = (await t.request(`${INSTANCES}/${name}`)).json().metadata.uid;
    const res = await del(JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1' }));
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: 'dbaas.platform.dev', kind: 'databaseinstances', uid },
    });
    const call = t.writer.writes()[0];
    expect(call).toMatchObject({ verb: 'delete', resource: 'mariadbs.k8s.mariadb.com', name });
    expect(t.writer.objectOf(MARIADBS, 'team-a', name)).toBeUndefined();
    expect(call.body).toEqual({ propagationPolicy: 'Background', preconditions: { uid, resourceVersion: seeded.metadata!.resourceVersion } });
    expectStatus(await t.request(`${INSTANCES}/${name}`), 404, 'NotFound');
  });

  it('answers the instance in phase Deleting while the operator\'s finalizers run', async () => {
    const held = `${name}-held`;
    seedInstance(t, 'mariadb', held, {}, { finalizers: ['k8s.mariadb.com/finalizer'] });
    const res = await del(undefined, '', held);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'DatabaseInstance', metadata: { name: held, deletionTimestamp: expect.any(String) }, status: { phase: 'Deleting' } });
    expect((await t.request(`${INSTANCES}/${held}`)).json().status.phase).toBe('Deleting');
  });

  it('refuses while deletion protection is on, deleting nothing', async () => {
    const guarded = `${name}-guarded`;
    seedInstance(t, 'mariadb', guarded, { deletionProtection: true });
    const body = expectStatus(
      await del(undefined, '', guarded),
      403,
      'Forbidden',
      `databaseinstances.dbaas.platform.dev "${guarded}" is forbidden: deletion protection is enabled; set spec.deletionProtection to false first`,
    );
    expect(causeFields(body)).toEqual(['spec.deletionProtection']);
    expect(t.writer.writes()).toHaveLength(0);
    expect((await t.request(`${INSTANCES}/${guarded}`)).status).toBe(200);
  });

  // Protection checked on this replica's cache: another replica may have set it a moment ago.
  it('refuses when deletion protection was set behind this replica\'s cache, deleting nothing', async () => {
    t.writer.changeBehindCache(MARIADBS, 'team-a', name, o => {
      o.metadata!.annotations = { ...o.metadata!.annotations, [ANNOTATION_DELETION_PROTECTION]: 'true' };
    });
    expect((await t.request(`${INSTANCES}/${name}`)).json().spec.deletionProtection).toBeUndefined();
    expectStatus(await del(), 403, 'Forbidden');
    expect(t.writer.calls.map(c => c.verb)).toEqual(['delete', 'get']);
    expect(t.writer.objectOf(MARIADBS, 'team-a', name)).toBeDefined();
  });

  it('deletes at the newest resourceVersion when the object changed behind the cache without protection', async () => {
    t.writer.changeBehindCache(MARIADBS, 'team-a', name, o => {
      o.status = { conditions: [{ type: 'Ready', status: 'False' }] };
    });
    const newest = t.writer.objectOf(MARIADBS, 'team-a', name)!.metadata!.resourceVersion;
    expect((await del()).status).toBe(200);
    expect(t.writer.calls.map(c => c.verb)).toEqual(['delete', 'get', 'delete']);
    expect((t.writer.calls[2].body as any).preconditions.resourceVersion).toBe(newest);
    expect(t.writer.objectOf(MARIADBS, 'team-a', name)).toBeUndefined();
  });

  it('answers 404 when the object was re-created behind the cache, deleting nothing', async () => {
    t.writer.changeBehindCache(MARIADBS, 'team-a', name, o => {
      o.metadata!.uid = 'someone-elses';
    });
    expectStatus(await del(), 404, 'NotFound');
    expect(t.writer.objectOf(MARIADBS, 'team-a', name)?.metadata?.uid).toBe('someone-elses');
  });

  it.each([
    [JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Foreground' }), '', 'Foreground'],
    [JSON.stringify({ propagationPolicy: 'Orphan' }), '', 'Orphan'],
    [JSON.stringify({ orphanDependents: false }), '', 'Background'],
    [undefined, '?propagationPolicy=Foreground', 'Foreground'],
    ['', '?gracePeriodSeconds=0', 'Background'],
  ])('accepts DeleteOptions %s %s (propagation %s)', async (body, query, policy) => {
    expect((await del(body, query)).status).toBe(200);
    expect((t.writer.writes()[0].body as any).propagationPolicy).toBe(policy);
  });

  it.each([
    [JSON.stringify({ propagationPolicy: 'Bogus' }), '', 'propagationPolicy', /Unsupported value: "Bogus"/],
    [JSON.stringify({ propagationPolicy: 'Background', orphanDependents: true }), '', 'propagationPolicy', /cannot be both set/],
    [undefined, '?dryRun=Yes', 'dryRun', /Unsupported value: "Yes"/],
  ])('refuses invalid DeleteOptions %s %s with 422', async (body, query, field, message) => {
    const status = expectStatus(await del(body, query), 422, 'Invalid', /^DeleteOptions\.meta\.k8s\.io "" is invalid: /);
    expect(causeFields(status)).toEqual([field]);
    expect(status.message).toMatch(message);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it('answers 400 for a body that is not DeleteOptions', async () => {
    expectStatus(await del(JSON.stringify({ kind: 'Pod', apiVersion: 'v1' })), 400, 'BadRequest');
    expectStatus(await del('{nope'), 400, 'BadRequest');
  });

  it.each([
    [{ uid: 'wrong' }, /Precondition failed: UID in precondition: wrong, UID in object meta: /],
    [{ resourceVersion: '1' }, /Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: /],
  ])('answers 409 when a precondition %j fails', async (preconditions, message) => {
    expectStatus(await del(JSON.stringify({ preconditions })), 409, 'Conflict', message);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it('dryRun=All answers the instance and deletes nothing', async () => {
    const res = await del(JSON.stringify({ dryRun: ['All'] }));
    expect(res.status).toBe(200);
    expect(res.json().metadata.name).toBe(name);
    expect(t.writer.writes()).toHaveLength(0);
    expect((await t.request(`${INSTANCES}/${name}`)).status).toBe(200);
  });

  it('answers 404 for a missing instance', async () => {
    expectStatus(await del(undefined, '', 'nope'), 404, 'NotFound', 'databaseinstances.dbaas.platform.dev "nope" not found');
  });

  describe('deletecollection', () => {
    it('deletes only what the selectors match and answers the list of them', async () => {
      seedInstance(t, 'redis', `${name}-a`, {}, { labels: { app: 'shop' } });
      seedInstance(t, 'rabbitmq', `${name}-b`, {}, { labels: { app: 'shop' } });
      seedInstance(t, 'redis', `${name}-c`, {}, { labels: { app: 'other' } });
      const res = await t.request(`${INSTANCES}?labelSelector=app%3Dshop`, json('DELETE', undefined));
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ kind: 'DatabaseInstanceList', metadata: { resourceVersion: expect.any(String) } });
      expect(res.json().items.map((i: any) => i.metadata.name).sort()).toEqual([`${name}-a`, `${name}-b`]);
      expect(t.writer.writes().map(c => c.name).sort()).toEqual([`${name}-a`, `${name}-b`]);
      expect((await t.request(`${INSTANCES}/${name}-c`)).status).toBe(200);
    });

    it('deletes nothing and names every protected instance when any match is protected', async () => {
      seedInstance(t, 'redis', `${name}-x`, {}, { labels: { app: 'pay' } });
      seedInstance(t, 'redis', `${name}-y`, { deletionProtection: true }, { labels: { app: 'pay' } });
      const body = expectStatus(await t.request(`${INSTANCES}?labelSelector=app%3Dpay`, json('DELETE', undefined)), 403, 'Forbidden');
      expect(body.message).toContain(`"${name}-y"`);
      expect(body.message).not.toContain(`"${name}-x"`);
      expect(t.writer.writes()).toHaveLength(0);
    });

    it('honours field selectors and dryRun', async () => {
      const res = await t.request(`${INSTANCES}?fieldSelector=metadata.name%3D${name}&dryRun=All`, json('DELETE', undefined));
      expect(res.json().items.map((i: any) => i.metadata.name)).toEqual([name]);
      expect(t.writer.writes()).toHaveLength(0);
    });

    it('answers 400 for a bad selector', async () => {
      expectStatus(await t.request(`${INSTANCES}?fieldSelector=spec.nope%3Dx`, json('DELETE', undefined)), 400, 'BadRequest');
    });
  });
});
