import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { asksDryRun, BACKEND_RUNS, BACKEND_TIMEOUT_MS, encode, hostile, instancePath, jsonValue, rarely, segment } from '../__testUtils__/hostileBackendProbe';
import { useHostileBackend } from '../__testUtils__/useHostileBackend';

jest.setTimeout(BACKEND_TIMEOUT_MS);

/** The demo's backup runs (of orders-db), and now and then any name at all. */
const backupName = () => fc.oneof({ weight: 4, arbitrary: fc.constantFrom('orders-db-nightly-check', 'orders-db-before-migration') }, { weight: 1, arbitrary: hostile(70) });

describe('hostile input: the backup routes of the databases backend', () => {
  // from here on only requests can change the cluster
  const { client, known } = useHostileBackend({ pauseOperators: true });

  it(`GET an instance's backups: ${BACKEND_RUNS} generated paths, as a list or a stream`, async () => {
    const codes = await client.family(
      'GET backups',
      fc.record({ t: instancePath(known()), stream: rarely(fc.constant(true), 4), extra: rarely(fc.tuple(hostile(8), hostile(8)), 4) }),
      c => ({
        method: 'GET',
        path: `${c.t.path}/backups${c.extra ? `?${encode(c.extra[0])}=${encode(c.extra[1])}` : ''}`,
        caller: c.t.caller,
        headers: { ...(c.stream ? { accept: 'text/event-stream' } : {}), ...(c.t.forged ?? {}) },
      }),
    );
    expect(codes.get(200)).toBeGreaterThan(0);
  });

  it(`POST back up now: ${BACKEND_RUNS} generated bodies`, async () => {
    const body = fc.record(
      {
        method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('logical', 'barmanObjectStore', 'volumeSnapshot') }, { weight: 1, arbitrary: jsonValue() }),
        // real backups are refused by policy, RBAC or validation, or taken as alice of team-a
        dryRun: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: jsonValue() }),
      },
      { requiredKeys: ['dryRun'] },
    );
    // now and then a field the schema does not have (a name the backend makes itself, say)
    const withStray = fc.tuple(body, rarely(fc.tuple(fc.constantFrom('name', 'spec', 'instanceRef', '__proto__'), jsonValue()), 6)).map(([b, stray]) => (stray ? { ...b, [stray[0]]: stray[1] } : b));
    const text = fc.oneof(
      { weight: 8, arbitrary: withStray.map(o => JSON.stringify(o)) },
      { weight: 1, arbitrary: hostile(100) },
      { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '"x"', '{"__proto__":{"dryRun":false}}', '{"constructor":{"prototype":{"x":1}}}', `{"method":"${'a'.repeat(200 * 1024)}"}`) },
    );
    const codes = await client.family(
      'POST backups',
      fc.record({ t: instancePath(known()), body: text, contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/yaml', '') }) }),
      c => ({
        method: 'POST',
        path: `${c.t.path}/backups`,
        caller: c.t.caller,
        headers: { ...(c.contentType ? { 'content-type': c.contentType } : {}), ...(c.t.forged ?? {}) },
        body: c.body,
        dryRun: asksDryRun(c.body),
      }),
    );
    expect(codes.get(200)).toBeGreaterThan(0);
  });

  it(`DELETE a backup: ${BACKEND_RUNS} generated requests, each refused (no demo user may delete backups in Kubernetes) or not found`, async () => {
    const codes = await client.family(
      'DELETE backup',
      fc.record({ t: instancePath(known()), backup: backupName().chain(segment) }),
      c => ({ method: 'DELETE', path: `${c.t.path}/backups/${c.backup}`, caller: c.t.caller, headers: c.t.forged ?? {}, dryRun: true }),
    );
    expect(codes.get(403)).toBeGreaterThan(0);
  });
});
