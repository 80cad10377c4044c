import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import {
  contentType,
  deleteBody,
  deleteQuery,
  mostlyDryRunWriteQuery,
  objectName,
  pathSegment,
  percentEncode,
  writeBody,
  writeCaller,
  GROUP_VERSION_PATH,
} from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectKubeAnswer, expectStatusFailure, expectWriteAnswer } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'];
const BACKUPS = (ns: string) => `${GROUP_VERSION_PATH}/namespaces/${percentEncode(ns)}/databasebackups`;
/** Demo instances of team-a: a MariaDB (backed up by default), a PostgreSQL, a MySQL and a Redis (no backups). */
const INSTANCES = ['orders-db', 'payments-pg', 'payments-db', 'orders-cache', 'no-such-db'];

/** A DatabaseBackup of team-a that the apiserver takes as it is when its instance can be backed up. */
const validBackup = (name: fc.Arbitrary<string>) =>
  fc
    .record({
      name,
      instance: fc.constantFrom(...INSTANCES),
      method: fc.option(fc.constantFrom('barmanObjectStore', 'volumeSnapshot', 'plugin', 'dump-to-volume'), { freq: 3, nil: undefined }),
    })
    .map(({ name: n, instance, method }) => ({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseBackup',
      metadata: { name: n, namespace: 'team-a' },
      spec: { instanceRef: { name: instance }, ...(method !== undefined && { method }) },
    }));

const newName = () =>
  fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^hb-[a-z0-9]{8}$/) }, { weight: 1, arbitrary: objectName(['orders-db-nightly-check']) });

describe('hostile input: databasebackups', () => {
  const h = useHostileHarness();
  let runs: string[] = [];

  beforeAll(() => {
    runs = h.system.apiserver.backups.list('team-a').map(b => b.metadata.name ?? '');
    if (runs.length === 0) throw new Error('the demo has no backup run in team-a to aim deletes at');
  });

  it(`answers ${HOSTILE_RUNS} generated creates with 201 or a 4xx Status, never a 5xx; a refused or dry-run create writes nothing`, async () => {
    const createCase = fc.record({
      caller: writeCaller(6),
      namespace: fc.oneof({ weight: 8, arbitrary: fc.constant('team-a') }, { weight: 1, arbitrary: objectName(['team-b', 'default']) }),
      shape: fc.oneof({ weight: 12, arbitrary: fc.constant('collection' as const) }, { weight: 1, arbitrary: fc.constantFrom('object' as const, 'cluster' as const, 'status' as const) }),
      query: mostlyDryRunWriteQuery(),
      contentType: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...JSON_TYPES, 'application/yaml') }, { weight: 1, arbitrary: contentType() }),
      body: newName().chain(name => writeBody(validBackup(fc.constant(name)))),
    });
    const codes = await runHostileCases(h, 'create', createCase, async (c, send) => {
      const collection = BACKUPS(c.namespace);
      const base = { collection, object: `${collection}/x`, cluster: `${GROUP_VERSION_PATH}/databasebackups`, status: `${collection}/x/status` }[c.shape];
      const probe: ProbeRequest = { method: 'POST', path: `${base}${c.query.text}`, headers: { 'content-type': c.contentType }, body: c.body.text(c.contentType) };
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      expectWriteAnswer(probe, answer, { what: 'create', success: 201, dryRun: c.query.dryRun, wrote: h.wroteSince(rvBefore) });

      const plain = c.caller === 'admin' && c.namespace === 'team-a' && c.shape === 'collection' && c.query.clean;
      const json = JSON_TYPES.includes(c.contentType);
      if (plain && c.body.kind === 'oversized') expectStatusFailure(probe, answer, [413]);
      if (plain && json && ['malformed', 'empty'].includes(c.body.kind)) expectStatusFailure(probe, answer, [400]);
      const doc = c.body.doc as { metadata?: { name?: unknown }; spec?: { instanceRef?: { name?: unknown }; method?: unknown } } | undefined;
      if (plain && (json || c.contentType === 'application/yaml') && c.body.kind === 'unknownFields' && c.query.fieldValidation === 'Strict') {
        const status = expectStatusFailure(probe, answer, [400]);
        // kube's strict decoder names the outermost unknown field: spec.storage itself for a backup
        for (const f of c.body.unknown) {
          const prefixes = [f];
          for (let i = f.indexOf('.'); i >= 0; i = f.indexOf('.', i + 1)) prefixes.push(f.slice(0, i));
          if (!prefixes.some(p => status.message.includes(`unknown field ${JSON.stringify(p)}`))) {
            throw new Error(`Strict refusal does not name ${JSON.stringify(f)}:\n${describeExchange(probe, answer)}`);
          }
        }
      }
      // the oracle's certain cases: a MariaDB backed up by default, a Redis never
      const fresh = typeof doc?.metadata?.name === 'string' && /^hb-[a-z0-9]{8}$/.test(doc.metadata.name);
      if (plain && (json || c.contentType === 'application/yaml') && c.body.kind === 'valid' && fresh) {
        const instance = doc?.spec?.instanceRef?.name;
        if (instance === 'orders-db' && doc?.spec?.method === undefined && answer.status !== 201) {
          throw new Error(`a valid backup of a MariaDB was refused:\n${describeExchange(probe, answer)}`);
        }
        if (instance === 'orders-cache' || instance === 'no-such-db') {
          const status = expectStatusFailure(probe, answer, [422]);
          if (!status.details?.causes?.some((k: { field?: string }) => k.field === 'spec.instanceRef.name')) {
            throw new Error(`the refusal does not name spec.instanceRef.name:\n${describeExchange(probe, answer)}`);
          }
        }
      }
    });
    expect(codes.get(201)).toBeGreaterThan(0);
    expect(codes.get(422)).toBeGreaterThan(0);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });

  it(`answers ${HOSTILE_RUNS} generated deletes with a success or a 4xx Status, never a 5xx; a refused delete writes nothing`, async () => {
    const deleteCase = fc.record({
      caller: writeCaller(6),
      target: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...runs).map(n => ['team-a', n] as const) }, { weight: 1, arbitrary: fc.tuple(objectName(['team-a']), objectName()) }),
      collection: fc.oneof({ weight: 8, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      trick: fc.option(objectName().chain(pathSegment), { freq: 10 }),
      query: deleteQuery(),
      contentType: fc.option(contentType(), { freq: 3 }),
      body: deleteBody(),
    });
    const codes = await runHostileCases(h, 'delete', deleteCase, async (c, send) => {
      const [namespace, name] = c.target;
      const queryText = c.query.length ? `?${c.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}` : '';
      const probe: ProbeRequest = {
        method: 'DELETE',
        path: `${c.collection ? BACKUPS(namespace) : `${BACKUPS(namespace)}/${c.trick ?? percentEncode(name)}`}${queryText}`,
        headers: c.contentType !== null ? { 'content-type': c.contentType } : {},
        ...(c.body.text !== undefined ? { body: c.body.text } : {}),
      };
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      const refusal = expectKubeAnswer(probe, answer);
      const wrote = h.wroteSince(rvBefore);
      if (refusal && wrote) throw new Error(`a refused delete wrote (${wrote}):\n${describeExchange(probe, answer)}`);
      // deletecollection is not served for backups: every one is an answer of its own
      if (c.collection && !refusal) throw new Error(`a deletecollection of backups was served:\n${describeExchange(probe, answer)}`);
      if (!refusal && !String(answer.headers.warning ?? '').includes('the backup data itself is not deleted')) {
        throw new Error(`a delete without the stored-data Warning:\n${describeExchange(probe, answer)}`);
      }
    });
    expect(codes.get(200)).toBeGreaterThan(0);
    expect(codes.get(403)).toBeGreaterThan(0);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
