/* eslint-disable jest/expect-expect -- expectStatus() asserts */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ANNOTATION_DELETION_PROTECTION, ANNOTATION_MANAGED_FIELDS, LABEL_BACKSTAGE_KUBERNETES_ID, LABEL_REQUESTED_BY } from '@internal/plugin-databases-common';
import { KubeHttpError } from '../../kube/kubeRequest';
import { causeFields, expectStatus } from '../__testutils__/expectStatus';
import { startTestServer, type TestServer } from '../__testutils__/testServer';
import { INSTANCES, json, seedInstance } from '../__testutils__/writeFixtures';
import { StatusError } from '../StatusError';
import type { PolicyRequest } from './PolicyChecker';

const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const conflictMessage = (name: string) =>
  `Operation cannot be fulfilled on databaseinstances.dbaas.platform.dev "${name}": the object has been modified; please apply your changes to the latest version and try again`;

describe('PUT and PATCH databaseinstances (update)', () => {
  let t: TestServer;
  const policyCalls: PolicyRequest[] = [];
  let policyAnswer: StatusError | undefined;
  let n = 0;
  let name = '';

  beforeAll(async () => {
    t = await startTestServer({}, {
      policy: {
        check: r => {
          policyCalls.push(r);
          return policyAnswer;
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    // a fresh MariaDB replication instance per test
    t.writer.projectionLagMs = 0;
    name = `db-${++n}`;
    seedInstance(t, 'mariadb', name, { topology: 'replication', replicas: 3, version: '11.4', storage: { size: '10Gi' } }, {
      labels: { [LABEL_BACKSTAGE_KUBERNETES_ID]: 'orders', [LABEL_REQUESTED_BY]: 'someone' },
    });
    t.writer.calls.length = 0;
    t.writer.fail = () => undefined;
    policyCalls.length = 0;
    policyAnswer = undefined;
  });

  const url = () => `${INSTANCES}/${name}`;
  const patch = (body: unknown, contentType = MERGE, query = '') =>
    t.request(`${url()}${query}`, json('PATCH', typeof body === 'string' ? body : JSON.stringify(body), 'alice', contentType));
  const current = async () => (await t.request(url())).json();
  const put = (obj: unknown, query = '') => t.request(`${url()}${query}`, json('PUT', JSON.stringify(obj)));

  it('merge patch scales: one conditional merge patch of the operator object, 200 with the new instance', async () => {
    const before = await current();
    const res = await patch({ spec: { replicas: 5 } });
    expect(res.status).toBe(200);
    const after = res.json();
    expect(after.spec.replicas).toBe(5);
    expect(BigInt(after.metadata.resourceVersion)).toBeGreaterThan(BigInt(before.metadata.resourceVersion));
    const writes = t.writer.writes();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ verb: 'mergePatch', resource: 'mariadbs.k8s.mariadb.com', name });
    expect((writes[0].body as any).spec).toEqual({ replicas: 5 });
    expect((writes[0].body as any).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('answers the updated instance even when the cache projects it after the informer has the object', async () => {
    t.writer.projectionLagMs = 60;
    const res = await patch({ spec: { replicas: 5 } });
    expect(res.json().spec.replicas).toBe(5);
    // and a read right after the answer sees it too (read-your-writes)
    expect((await current()).spec.replicas).toBe(5);
  });

  it('upgrades the version', async () => {
    const res = await patch({ spec: { version: '11.8' } });
    expect(res.status).toBe(200);
    expect(res.json().spec.version).toBe('11.8');
  });

  it('refuses a stale resourceVersion with 409 Conflict and kube\'s message', async () => {
    const old = (await current()).metadata.resourceVersion;
    expect((await patch({ spec: { replicas: 4 } })).status).toBe(200);
    expectStatus(await patch({ metadata: { resourceVersion: old }, spec: { replicas: 5 } }), 409, 'Conflict', conflictMessage(name));
    const obj = await current();
    expectStatus(await put({ ...obj, metadata: { ...obj.metadata, resourceVersion: old }, spec: { ...obj.spec, replicas: 6 } }), 409, 'Conflict', conflictMessage(name));
  });

  it('PUT with the current resourceVersion and a changed spec updates; an identical PUT writes nothing', async () => {
    const obj = await current();
    const changed = await put({ ...obj, spec: { ...obj.spec, replicas: 4 } });
    expect(changed.status).toBe(200);
    expect(changed.json().spec.replicas).toBe(4);
    t.writer.calls.length = 0;
    const again = await current();
    const same = await put(again);
    expect(same.status).toBe(200);
    expect(same.json().metadata.resourceVersion).toBe(again.metadata.resourceVersion);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it('ignores status on the main resource (no write)', async () => {
    const obj = await current();
    const res = await put({ ...obj, status: { ...obj.status, phase: 'Failed' } });
    expect(res.status).toBe(200);
    expect(res.json().status.phase).toBe(obj.status.phase);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it.each([
    [{ name: 'other' }, 400, 'BadRequest', /^the name of the object \(other\) does not match the name on the URL/],
    [{ namespace: 'team-b' }, 400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request'],
    [{ uid: 'another-uid' }, 409, 'Conflict', /Precondition failed: UID in precondition: another-uid/],
  ])('keeps name, namespace and uid immutable: %j', async (meta, code, reason, message) => {
    const obj = await current();
    expectStatus(await put({ ...obj, metadata: { ...obj.metadata, ...meta } }), code, reason, message);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it.each([
    [{ version: '10.11' }, 'spec.version', /downgrade from 11\.4 to 10\.11/],
    [{ storage: { size: '5Gi' } }, 'spec.storage.size', /shrinking storage/],
    [{ topology: 'galera' }, 'spec.topology', /changing the topology/],
    [{ engine: 'mysql' }, 'spec.engine', /immutable|Unsupported|supported/],
    [{ replicas: 0 }, 'spec.replicas', /Invalid value: 0/],
  ])('refuses what the operator cannot do: %j ⇒ 422 naming %s', async (spec, field, message) => {
    const body = expectStatus(await patch({ spec }), 422, 'Invalid', /^DatabaseInstance\.dbaas\.platform\.dev "db-\d+" is invalid: /);
    expect(causeFields(body)).toContain(field);
    expect(body.message).toMatch(message);
    expect(t.writer.writes()).toHaveLength(0);
  });

  it('asks the policy with the previous spec and refuses with its 403', async () => {
    policyAnswer = new StatusError(403, 'Forbidden', `databaseinstances.dbaas.platform.dev "${name}" is forbidden: exceeded policy: max replicas`);
    expectStatus(await patch({ spec: { replicas: 9 } }), 403, 'Forbidden', /exceeded policy/);
    expect(policyCalls[0]).toMatchObject({ name, spec: { replicas: 9 }, previousSpec: { replicas: 3 } });
    expect(t.writer.writes()).toHaveLength(0);
  });

  it('maps label and annotation changes onto the operator object, but not who asked', async () => {
    const res = await patch({ metadata: { labels: { team: 'payments', [LABEL_BACKSTAGE_KUBERNETES_ID]: null, [LABEL_REQUESTED_BY]: 'mallory' }, annotations: { note: 'x' } } });
    expect(res.status).toBe(200);
    const sent = (t.writer.writes()[0].body as any).metadata;
    expect(sent.labels).toEqual({ team: 'payments', [LABEL_BACKSTAGE_KUBERNETES_ID]: null });
    // the client's annotation, and the record of who set it (managedFields)
    expect(sent.annotations).toEqual({ note: 'x', [ANNOTATION_MANAGED_FIELDS]: expect.any(String) });
    expect(JSON.parse(sent.annotations[ANNOTATION_MANAGED_FIELDS])[0].fieldsV1).toEqual({
      'f:metadata': { 'f:annotations': { 'f:note': {} }, 'f:labels': { 'f:team': {} } },
    });
    expect(res.json().metadata.labels[LABEL_REQUESTED_BY]).toBe('someone');
  });

  it('sets and clears deletion protection through the spec', async () => {
    expect((await patch({ spec: { deletionProtection: true } })).json().spec.deletionProtection).toBe(true);
    expect((t.writer.writes()[0].body as any).metadata.annotations).toEqual({ [ANNOTATION_DELETION_PROTECTION]: 'true', [ANNOTATION_MANAGED_FIELDS]: expect.any(String) });
    expect((await patch({ spec: { deletionProtection: false } })).json().spec.deletionProtection).not.toBe(true);
  });

  it('dryRun=All answers the would-be instance and writes nothing', async () => {
    const before = await current();
    const res = await patch({ spec: { replicas: 7 } }, MERGE, '?dryRun=All');
    expect(res.status).toBe(200);
    expect(res.json().spec.replicas).toBe(7);
    // the generation the write would give, as kube-apiserver's dry run answers
    expect(before.metadata.generation).toEqual(expect.any(Number));
    expect(res.json().metadata.generation).toBe(before.metadata.generation! + 1);
    expect(t.writer.writes()).toHaveLength(0);
    expect((await current()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect((await current()).metadata.generation).toBe(before.metadata.generation);
  });

  describe('JSON patch', () => {
    it('applies replace ops', async () => {
      const res = await patch([{ op: 'replace', path: '/spec/replicas', value: 4 }], JSON_PATCH);
      expect(res.status).toBe(200);
      expect(res.json().spec.replicas).toBe(4);
    });

    it('answers 422 Invalid when a test op fails, writing nothing', async () => {
      expectStatus(await patch([{ op: 'test', path: '/spec/replicas', value: 99 }, { op: 'replace', path: '/spec/replicas', value: 5 }], JSON_PATCH), 422, 'Invalid');
      expect(t.writer.writes()).toHaveLength(0);
    });

    it('answers 422 for a path that does not exist', async () => {
      expectStatus(await patch([{ op: 'replace', path: '/spec/nothing/here', value: 1 }], JSON_PATCH), 422, 'Invalid');
    });
  });

  it.each([
    ['application/strategic-merge-patch+json'],
    ['application/apply-patch+cbor'],
    ['text/plain'],
  ])('answers %s with 415 listing the patch types served', async contentType => {
    expectStatus(
      await patch({ spec: { replicas: 4 } }, contentType),
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it.each([
    ['not json', MERGE],
    ['{"op":"replace"}', JSON_PATCH],
  ])('answers 400 for a patch body that does not decode: %s', async (body, type) => {
    expectStatus(await patch(body, type), 400, 'BadRequest');
  });

  it('refuses force on a non-apply patch', async () => {
    expectStatus(await patch({ spec: { replicas: 4 } }, MERGE, '?force=true'), 422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  });

  it('answers 404 for a missing instance', async () => {
    expectStatus(await t.request(`${INSTANCES}/nope`, json('PATCH', '{"spec":{}}', 'alice', MERGE)), 404, 'NotFound', 'databaseinstances.dbaas.platform.dev "nope" not found');
  });

  it('re-runs on the newer object when kube-apiserver reports a change our cache had not seen', async () => {
    let first = true;
    t.writer.fail = c => {
      if (c.verb !== 'mergePatch' || !first) return undefined;
      first = false;
      // someone else changed the object meanwhile (the cache sees it right away here)
      seedInstance(t, 'mariadb', name, { topology: 'replication', replicas: 3, version: '11.4', storage: { size: '10Gi' } }, { uid: (t.store.source('team-a', name)!.object.metadata!.uid as string) });
      return new KubeHttpError(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' });
    };
    const res = await patch({ spec: { replicas: 5 } });
    expect(res.status).toBe(200);
    expect(t.writer.writes().filter(c => c.verb === 'mergePatch')).toHaveLength(2);
  });

  it('keeps re-running while only the operator\'s status writes get in the way (a busy operator), within a bound', async () => {
    const { kind } = seedInstance(t, 'mariadb', name, { topology: 'replication', replicas: 3, version: '11.4', storage: { size: '10Gi' } });
    let statusWrites = 0;
    t.writer.fail = c => {
      if (c.verb !== 'mergePatch' || statusWrites >= 6) return undefined;
      // the operator wrote a status meanwhile (the cache sees it right away here)
      const object = t.store.source('team-a', name)!.object;
      t.writer.seed(kind, { ...object, status: { ...(object as any).status, observed: ++statusWrites } } as any);
      return new KubeHttpError(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' });
    };
    const res = await patch({ spec: { replicas: 5 } });
    expect(res.status).toBe(200);
    expect(t.writer.writes().filter(c => c.verb === 'mergePatch')).toHaveLength(7);
  });

  it('a patch without a resourceVersion of its own applies even while the served instance trails the operator object', async () => {
    const { kind } = seedInstance(t, 'mariadb', name, { topology: 'replication', replicas: 3, version: '11.4', storage: { size: '10Gi' } });
    // the operator wrote a status; the projection (and so the served RV) has not caught up yet
    const served = await current();
    t.writer.projectionLagMs = 300;
    t.writer.seed(kind, { ...t.store.source('team-a', name)!.object, status: { observed: 1 } } as any);
    expect((await current()).metadata.resourceVersion).toBe(served.metadata.resourceVersion);
    const res = await patch({ spec: { replicas: 5 } });
    expect(res.status).toBe(200);
    // pinned by the patch itself, the same change is a 409
    const pinned = await patch({ metadata: { resourceVersion: served.metadata.resourceVersion }, spec: { replicas: 7 } });
    expectStatus(pinned, 409, 'Conflict', conflictMessage(name));
  });

  it('a client holding the instance is not refused for a change nothing served shows (the apiserver\'s own Ready-spec record)', async () => {
    const served = await current();
    t.writer.changeUnserved(t.store.source('team-a', name)!.kind, 'team-a', name, object => ({
      ...object,
      metadata: { ...object.metadata, annotations: { ...object.metadata?.annotations, 'dbaas.platform.dev/ready-spec': '{"replicas":3}' } },
    }));
    expect((await current()).metadata.resourceVersion).toBe(served.metadata.resourceVersion);
    const objectRv = t.store.builtFromRv('team-a', name);
    expect(objectRv).not.toBe(served.metadata.resourceVersion);
    const res = await patch({ metadata: { resourceVersion: served.metadata.resourceVersion }, spec: { replicas: 5 } });
    expect(res.status).toBe(200);
    // the write went to the object as it is now, record kept
    const write = t.writer.writes().find(c => c.verb === 'mergePatch') as any;
    expect(write.body.metadata).toMatchObject({ resourceVersion: objectRv });
    // nothing but the record of who changed the replicas
    expect(Object.keys(write.body.metadata.annotations ?? {})).toEqual([ANNOTATION_MANAGED_FIELDS]);
    // an older resourceVersion than the one served is still stale
    const stale = await patch({ metadata: { resourceVersion: '1' }, spec: { replicas: 7 } });
    expectStatus(stale, 409, 'Conflict', conflictMessage(name));
  });

  it('gives up with 409 after the counted attempts when others keep changing the spec', async () => {
    const { kind } = seedInstance(t, 'mariadb', name, { topology: 'replication', replicas: 3, version: '11.4', storage: { size: '10Gi' } });
    t.writer.fail = c => {
      if (c.verb !== 'mergePatch') return undefined;
      const object = t.store.source('team-a', name)!.object;
      t.writer.seed(kind, { ...object, spec: { ...(object as any).spec, replicas: (object as any).spec.replicas + 2 } } as any);
      return new KubeHttpError(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' });
    };
    expectStatus(await patch({ metadata: { labels: { team: 'x' } } }), 409, 'Conflict', conflictMessage(name));
    expect(t.writer.writes().filter(c => c.verb === 'mergePatch')).toHaveLength(3);
  });

  it('waits for an instance this process just created when the cache is late with it, instead of a 404', async () => {
    t.writer.projectionLagMs = 300; // longer than the create waits for the cache (200 ms here)
    const created = await t.request(INSTANCES, json('POST', JSON.stringify({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name: `${name}-new` }, spec: { engine: 'redis' } })));
    expect(created.status).toBe(201);
    const res = await t.request(`${INSTANCES}/${name}-new`, json('PATCH', JSON.stringify({ metadata: { labels: { a: 'b' } } }), 'alice', MERGE));
    expect(res.status).toBe(200);
    expect(res.json().metadata.labels.a).toBe('b');
  });

  it('answers 503 with Retry-After when kube-apiserver is unreachable', async () => {
    t.writer.fail = () => new Error('socket hang up');
    const res = await patch({ spec: { replicas: 5 } });
    expectStatus(res, 503, 'ServiceUnavailable');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('keeps databaseinstances/status read-only', async () => {
    expectStatus(await t.request(`${url()}/status`, json('PUT', '{}')), 405, 'MethodNotAllowed');
  });
});
