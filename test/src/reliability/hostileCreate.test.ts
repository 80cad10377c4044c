import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { contentType, mostlyDryRunWriteQuery, objectName, percentEncode, validInstance, writeBody, writeCaller, GROUP_VERSION_PATH } from './arbitraries';
import type { ProbeRequest } from './hostileApiClient';
import { healthz, runHostileCases } from './hostileCases';
import { describeExchange, expectStatusFailure, expectWriteAnswer } from './hostileExpectations';
import { HOSTILE_RUNS, HOSTILE_TIMEOUT_MS } from './hostileHarness';
import { useHostileHarness } from './__testUtils__/useHostileHarness';

jest.setTimeout(HOSTILE_TIMEOUT_MS);

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'];

/** Names for new objects: fresh ones (a collision with an earlier case is unlikely) and hostile ones. */
const newName = () =>
  fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^h-[a-z0-9]{8}$/) }, { weight: 1, arbitrary: objectName(['orders-db']) });

describe('hostile input: create of databaseinstances', () => {
  const h = useHostileHarness();

  it(`answers ${HOSTILE_RUNS} generated creates with 201 or a 4xx Status, never a 5xx; a refused or dry-run create writes nothing`, async () => {
    const createCase = fc.record({
      caller: writeCaller(6),
      namespace: fc.oneof({ weight: 8, arbitrary: fc.constant('team-a') }, { weight: 1, arbitrary: objectName(['team-b', 'default']) }),
      // the collection, or paths a create must not be served on
      shape: fc.oneof({ weight: 12, arbitrary: fc.constant('collection' as const) }, { weight: 1, arbitrary: fc.constantFrom('object' as const, 'cluster' as const, 'status' as const) }),
      query: mostlyDryRunWriteQuery(),
      contentType: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...JSON_TYPES, 'application/yaml') }, { weight: 1, arbitrary: contentType() }),
      body: newName().chain(name => writeBody(validInstance('team-a', fc.constant(name)))),
    });
    const codes = await runHostileCases(h, 'create', createCase, async (c, send) => {
      const ns = percentEncode(c.namespace);
      const collection = `${GROUP_VERSION_PATH}/namespaces/${ns}/databaseinstances`;
      const base = { collection, object: `${collection}/x`, cluster: `${GROUP_VERSION_PATH}/databaseinstances`, status: `${collection}/x/status` }[c.shape];
      const probe: ProbeRequest = {
        method: 'POST',
        path: `${base}${c.query.text}`,
        headers: { 'content-type': c.contentType },
        body: c.body.text(c.contentType),
      };
      const rvBefore = h.storeRv();
      const answer = await send(c.caller, probe);
      expectWriteAnswer(probe, answer, { what: 'create', success: 201, dryRun: c.query.dryRun, wrote: h.wroteSince(rvBefore) });

      // what the oracle knows beyond "no 5xx": only for requests that are fine but for their body
      const plain = c.caller === 'admin' && c.namespace === 'team-a' && c.shape === 'collection' && c.query.clean;
      const sentName: unknown = (c.body.doc as any)?.metadata?.name;
      const freshName = typeof sentName === 'string' && /^h-[a-z0-9]{8}$/.test(sentName);
      const json = JSON_TYPES.includes(c.contentType);
      if (plain && c.body.kind === 'oversized') expectStatusFailure(probe, answer, [413]);
      if (plain && json && ['malformed', 'empty'].includes(c.body.kind)) expectStatusFailure(probe, answer, [400]);
      if (plain && (json || c.contentType === 'application/yaml') && c.body.kind === 'unknownFields') {
        if (c.query.fieldValidation === 'Strict') {
          const status = expectStatusFailure(probe, answer, [400]);
          for (const f of c.body.unknown) {
            if (!status.message.includes(`unknown field ${JSON.stringify(f)}`)) {
              throw new Error(`Strict refusal does not name ${JSON.stringify(f)}:\n${describeExchange(probe, answer)}`);
            }
          }
        } else if (answer.status === 201) {
          const warning = String(answer.headers.warning ?? '');
          if (c.query.fieldValidation === 'Warn' && !c.body.unknown.every(() => warning.includes('unknown field'))) {
            throw new Error(`no Warning for unknown fields:\n${describeExchange(probe, answer)}`);
          }
          if (c.query.fieldValidation === 'Ignore' && warning) throw new Error(`a Warning despite Ignore:\n${describeExchange(probe, answer)}`);
        }
      }
      if (plain && (json || c.contentType === 'application/yaml') && c.body.kind === 'valid' && freshName && answer.status !== 201 && answer.status !== 409) {
        throw new Error(`a valid create was refused:\n${describeExchange(probe, answer)}`);
      }
    });
    expect(codes.get(201)).toBeGreaterThan(0);
    expect([...codes.keys()].filter(c => c >= 400).length).toBeGreaterThan(4);
    expect(await healthz(h)).toEqual({ status: 200, body: 'ok' });
  });
});
