import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ANNOTATION_MANAGED_FIELDS, LABEL_REQUESTED_BY } from '@internal/plugin-databases-common';
import { causeFields, expectStatus } from '../__testutils__/expectStatus';
import { startTestServer, type TestServer } from '../__testutils__/testServer';
import { INSTANCES, json, seedInstance } from '../__testutils__/writeFixtures';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/** A MariaDB replication instance: replicas can change. */
const DB = { engine: 'mariadb', topology: 'replication' };

const config = (name: string, spec: Record<string, unknown>, labels?: Record<string, string>) =>
  JSON.stringify({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec,
  });

describe('PATCH databaseinstances with application/apply-patch+yaml (server-side apply)', () => {
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
    t.writer.projectionLagMs = 0;
    name = `ssa-${++n}`;
    t.writer.calls.length = 0;
    t.writer.fail = () => undefined;
  });

  const apply = (body: string, query = '?fieldManager=flux', headers: Record<string, string> = {}) => {
    const init = json('PATCH', body, 'alice', APPLY);
    return t.request(`${INSTANCES}/${name}${query}`, { ...init, headers: { ...init.headers, ...headers } });
  };
  const get = async () => (await t.request(`${INSTANCES}/${name}`)).json();
  const managers = (obj: any) => (obj.metadata.managedFields ?? []).map((e: any) => `${e.manager}/${e.operation}`);

  it('creates an instance that does not exist (201), recording the applier as the owner of what it set', async () => {
    const res = await apply(config(name, { ...DB, replicas: 3 }, { app: 'orders' }));
    expect(res.status).toBe(201);
    const served = res.json();
    expect(served.metadata.managedFields).toEqual([
      {
        manager: 'flux',
        operation: 'Apply',
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:engine': {}, 'f:replicas': {}, 'f:topology': {} } },
      },
    ]);
    // kept on the operator object, never served as an annotation
    const created = t.writer.writes().find(w => w.verb === 'create' && !w.resource.startsWith('secrets')) as any;
    expect(JSON.parse(created.body.metadata.annotations[ANNOTATION_MANAGED_FIELDS])).toEqual(served.metadata.managedFields);
    expect(served.metadata.annotations?.[ANNOTATION_MANAGED_FIELDS]).toBeUndefined();
  });

  it('the same config applied again writes nothing and keeps the resourceVersion', async () => {
    const body = config(name, { ...DB, replicas: 3 });
    const first = (await apply(body)).json();
    t.writer.calls.length = 0;
    const again = await apply(body);
    expect(again.status).toBe(200);
    expect(t.writer.writes()).toEqual([]);
    expect(again.json().metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(again.json().metadata.managedFields).toEqual(first.metadata.managedFields);
  });

  it('a second manager changing the first one’s field gets a 409 naming the field and manager; force takes it over', async () => {
    await apply(config(name, { ...DB, replicas: 3 }));
    const refused = await apply(config(name, { ...DB, replicas: 5 }), '?fieldManager=team-b');
    expectStatus(refused, 409, 'Conflict', 'Apply failed with 1 conflict: conflict with "flux": .spec.replicas');
    expect(refused.json().details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "flux"', field: '.spec.replicas' }]);
    expect(t.writer.writes().filter(w => w.verb === 'mergePatch')).toEqual([]);

    const forced = await apply(config(name, { ...DB, replicas: 5 }), '?fieldManager=team-b&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json().spec.replicas).toBe(5);
    const fields = Object.fromEntries(forced.json().metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1]));
    expect(fields).toEqual({
      flux: { 'f:spec': { 'f:engine': {}, 'f:topology': {} } },
      'team-b': { 'f:spec': { 'f:engine': {}, 'f:replicas': {}, 'f:topology': {} } },
    });
  });

  it('an adopted instance (no record) conflicts with before-first-apply where the config differs', async () => {
    seedInstance(t, 'mariadb', name, { topology: 'replication', replicas: 3, version: '11.4' });
    const refused = await apply(config(name, { engine: 'mariadb', topology: 'replication', replicas: 4 }));
    expectStatus(refused, 409, 'Conflict', /^Apply failed with 1 conflict: conflict with "before-first-apply" using dbaas\.platform\.dev\/v1alpha1 at \S+: \.spec\.replicas$/);
    const same = await apply(config(name, { engine: 'mariadb', topology: 'replication', replicas: 3 }));
    expect(same.status).toBe(200);
    expect(managers(same.json()).sort()).toEqual(['before-first-apply/Update', 'flux/Apply']);
  });

  it('dropping a field from the config gives it up; the labels it alone applied go', async () => {
    await apply(config(name, { ...DB, replicas: 3 }, { a: '1', b: '2' }));
    const res = await apply(config(name, { ...DB, replicas: 3 }, { b: '2' }));
    expect(res.status).toBe(200);
    expect(res.json().metadata.labels).toEqual(expect.not.objectContaining({ a: '1' }));
    expect(res.json().metadata.labels).toMatchObject({ b: '2' });
  });

  it('dryRun answers the would-be instance and record, writing nothing', async () => {
    await apply(config(name, { ...DB, replicas: 3 }));
    t.writer.calls.length = 0;
    const res = await apply(config(name, { ...DB, replicas: 4 }), '?fieldManager=flux&dryRun=All');
    expect(res.status).toBe(200);
    expect(res.json().spec.replicas).toBe(4);
    expect(res.json().metadata.managedFields[0].fieldsV1['f:spec']).toEqual({ 'f:engine': {}, 'f:replicas': {}, 'f:topology': {} });
    expect(t.writer.writes()).toEqual([]);
    expect((await get()).spec.replicas).toBe(3);
  });

  it('a merge patch after an apply is recorded as an Update of its manager (fieldManager, else the User-Agent)', async () => {
    await apply(config(name, { ...DB, replicas: 3 }));
    const init = json('PATCH', JSON.stringify({ spec: { replicas: 4 } }), 'alice', MERGE);
    const res = await t.request(`${INSTANCES}/${name}`, { ...init, headers: { ...init.headers, 'user-agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc' } });
    expect(managers(res.json())).toEqual(['flux/Apply', 'kubectl/Update']);
    const flux = res.json().metadata.managedFields[0].fieldsV1;
    expect(flux).toEqual({ 'f:spec': { 'f:engine': {}, 'f:topology': {} } });
    // and [{}] clears the record, as kube-apiserver documents
    const cleared = await t.request(`${INSTANCES}/${name}`, json('PATCH', JSON.stringify({ metadata: { managedFields: [{}] } }), 'alice', MERGE));
    expect(cleared.json().metadata.managedFields).toBeUndefined();
  });

  it('keys the apiserver sets are nobody’s fields and never a conflict', async () => {
    const res = await apply(config(name, { ...DB, replicas: 3 }, { [LABEL_REQUESTED_BY]: 'mallory' }));
    expect(res.status).toBe(201);
    expect(res.json().metadata.labels[LABEL_REQUESTED_BY]).toBe('alice');
    expect(res.json().metadata.managedFields[0].fieldsV1['f:metadata']).toBeUndefined();
  });

  it.each([
    ['no fieldManager', config('x', { engine: 'postgresql' }), '', 422, 'Invalid', /fieldManager: Required value: is required for apply patch/],
    ['another apiVersion', JSON.stringify({ apiVersion: 'v1', kind: 'DatabaseInstance', metadata: { name: 'x' }, spec: {} }), '?fieldManager=m', 400, 'BadRequest', 'Incorrect version specified in apply patch. Specified patch version: v1, expected: dbaas.platform.dev/v1alpha1'],
    ['managedFields in the config', JSON.stringify({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name: 'x', managedFields: [] }, spec: {} }), '?fieldManager=m', 400, 'BadRequest', 'metadata.managedFields must be nil'],
    ['YAML that does not parse', 'spec: [unclosed', '?fieldManager=m', 400, 'BadRequest', /^error decoding YAML/],
    ['another name', config('other', { engine: 'postgresql' }), '?fieldManager=m', 400, 'BadRequest', /does not match the name on the URL/],
  ])('answers %s with a Status, writing nothing', async (_what, body, query, code, reason, message) => {
    name = 'x';
    expectStatus(await apply(body, query), code, reason, message);
    expect(t.writer.writes()).toEqual([]);
  });

  it('accepts a YAML config, and refuses a bad spec field by name', async () => {
    const yaml = `apiVersion: dbaas.platform.dev/v1alpha1\nkind: DatabaseInstance\nmetadata:\n  name: ${name}\nspec:\n  engine: mariadb\n  topology: replication\n  replicas: -1\n`;
    const res = await apply(yaml);
    expectStatus(res, 422, 'Invalid');
    expect(causeFields(res.json())).toContain('spec.replicas');
  });

  it('reads a JSON config as JSON (a key given twice is its last, as for every JSON body) and anything else as YAML', async () => {
    const twice = `{"apiVersion":"dbaas.platform.dev/v1alpha1","kind":"DatabaseInstance","metadata":{"name":"${name}"},"spec":{"engine":"mariadb","topology":"replication","replicas":-1,"replicas":3}}`;
    expect((await apply(twice)).status).toBe(201);
    expect((await get()).spec.replicas).toBe(3);
    // a flow mapping that is not JSON, and JSON with a YAML comment, are YAML (which refuses the twice given key)
    const flow = `{apiVersion: dbaas.platform.dev/v1alpha1, kind: DatabaseInstance, spec: {engine: mariadb, topology: replication, replicas: 4}}`;
    expect((await apply(flow)).status).toBe(200);
    expect((await get()).spec.replicas).toBe(4);
    const commented = `${twice} # the same, with a comment`;
    const refused = await apply(commented);
    expectStatus(refused, 400, 'BadRequest');
    expect(refused.json().message).toMatch(/^error decoding YAML: Map keys must be unique/);
  });

  it('refuses a config nested deeper than any instance: JSON before parsing it, YAML after', async () => {
    const jsonBody = `{"apiVersion":"dbaas.platform.dev/v1alpha1","kind":"DatabaseInstance","spec":{"x":${'['.repeat(5000)}1${']'.repeat(5000)}}}`;
    const res = await apply(jsonBody);
    expectStatus(res, 400, 'BadRequest');
    expect(res.json().message).toBe('error decoding YAML: nested deeper than 100 levels');
    const yaml = `apiVersion: dbaas.platform.dev/v1alpha1\nkind: DatabaseInstance\nspec:\n  x: ${'['.repeat(150)}1${']'.repeat(150)}\n`;
    const refused = await apply(yaml);
    expectStatus(refused, 400, 'BadRequest');
    expect(refused.json().message).toBe('error decoding YAML: nested deeper than 100 levels');
  });
});
