import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { asksDryRun, BACKEND_RUNS, BACKEND_TIMEOUT_MS, encode, hostile, instancePath, jsonValue, rarely, segment } from '../__testUtils__/hostileBackendProbe';
import { useHostileBackend } from '../__testUtils__/useHostileBackend';

jest.setTimeout(BACKEND_TIMEOUT_MS);

const cron = () => fc.oneof({ weight: 4, arbitrary: fc.constantFrom('0 2 * * *', '*/5 * * * *', '61 * * * *', '* * * * * *', '@daily', '') }, { weight: 1, arbitrary: jsonValue() });
const retention = () => fc.oneof({ weight: 4, arbitrary: fc.constantFrom('7d', '720h', 'forever', '0d', '') }, { weight: 1, arbitrary: jsonValue() });

/** A JSON body of the schedule routes, now and then with a stray field, or no JSON at all. */
function bodyText(fields: fc.Arbitrary<Record<string, unknown>>) {
  const withStray = fc
    .tuple(fields, rarely(fc.tuple(fc.constantFrom('name', 'spec', 'instanceRef', 'metadata', '__proto__'), jsonValue()), 6))
    .map(([b, stray]) => (stray ? { ...b, [stray[0]]: stray[1] } : b));
  return fc.oneof(
    { weight: 8, arbitrary: withStray.map(o => JSON.stringify(o)) },
    { weight: 1, arbitrary: hostile(100) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"dryRun":false}}', `{"schedule":"${'* '.repeat(100 * 1024)}"}`) },
  );
}

const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/merge-patch+json', '') });
const scheduleName = () => fc.oneof({ weight: 4, arbitrary: fc.constantFrom('orders-db-backups', 'no-such-schedule') }, { weight: 1, arbitrary: hostile(70) });

// No demo user may write schedules in Kubernetes (the chart's dbaas-admin alone does, and nobody
// is bound to it here), so every write is refused somewhere: the oracle checks that each refusal
// is a Backstage error with the right status, and that none changed the cluster.
describe('hostile input: the schedule routes of the databases backend', () => {
  const { client, known } = useHostileBackend({ pauseOperators: true });

  it(`GET an instance's schedules: ${BACKEND_RUNS} generated paths, as a list or a stream`, async () => {
    const codes = await client.family(
      'GET schedules',
      fc.record({ t: instancePath(known()), stream: rarely(fc.constant(true), 4), extra: rarely(fc.tuple(hostile(8), hostile(8)), 4) }),
      c => ({
        method: 'GET',
        path: `${c.t.path}/schedules${c.extra ? `?${encode(c.extra[0])}=${encode(c.extra[1])}` : ''}`,
        caller: c.t.caller,
        headers: { ...(c.stream ? { accept: 'text/event-stream' } : {}), ...(c.t.forged ?? {}) },
      }),
    );
    expect(codes.get(200)).toBeGreaterThan(0);
  });

  it(`POST a schedule: ${BACKEND_RUNS} generated bodies`, async () => {
    const fields = fc.record(
      { schedule: cron(), suspend: fc.oneof(fc.boolean(), jsonValue()), retention: retention(), method: fc.oneof(fc.constantFrom('volumeSnapshot', 'logical'), jsonValue()), dryRun: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: jsonValue() }) },
      { requiredKeys: ['schedule'] },
    );
    const codes = await client.family(
      'POST schedules',
      fc.record({ t: instancePath(known()), body: bodyText(fields), contentType }),
      c => ({
        method: 'POST',
        path: `${c.t.path}/schedules`,
        caller: c.t.caller,
        headers: { ...(c.contentType ? { 'content-type': c.contentType } : {}), ...(c.t.forged ?? {}) },
        body: c.body,
        dryRun: asksDryRun(c.body),
      }),
    );
    expect(codes.get(400)).toBeGreaterThan(0);
    expect(codes.get(403)).toBeGreaterThan(0);
  });

  it(`PATCH a schedule: ${BACKEND_RUNS} generated requests`, async () => {
    const fields = fc.record({
      schedule: cron(),
      suspend: fc.oneof(fc.boolean(), jsonValue()),
      retention: fc.oneof(retention(), fc.constant(null)),
      resourceVersion: fc.oneof(fc.constantFrom('1', '999999', ''), jsonValue()),
      dryRun: fc.oneof(fc.boolean(), jsonValue()),
    }, { requiredKeys: [] });
    const codes = await client.family(
      'PATCH schedule',
      fc.record({ t: instancePath(known()), schedule: scheduleName().chain(segment), body: bodyText(fields), contentType }),
      c => ({
        method: 'PATCH',
        path: `${c.t.path}/schedules/${c.schedule}`,
        caller: c.t.caller,
        headers: { ...(c.contentType ? { 'content-type': c.contentType } : {}), ...(c.t.forged ?? {}) },
        body: c.body,
        dryRun: asksDryRun(c.body),
      }),
    );
    expect(codes.get(400)).toBeGreaterThan(0);
  });

  it(`DELETE a schedule: ${BACKEND_RUNS} generated requests, each refused or not found`, async () => {
    const codes = await client.family(
      'DELETE schedule',
      fc.record({ t: instancePath(known()), schedule: scheduleName().chain(segment) }),
      c => ({ method: 'DELETE', path: `${c.t.path}/schedules/${c.schedule}`, caller: c.t.caller, headers: c.t.forged ?? {}, dryRun: true }),
    );
    expect(codes.get(403)).toBeGreaterThan(0);
  });
});
