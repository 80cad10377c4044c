import { describe, it, expect } from '@jest/globals';
import path from 'node:path';
import type { DatabasePhase } from '@internal/plugin-databases-common';
import { findAdapterForObject } from './registry';
import type {
  AwaitingAdapter,
  Expectation,
  NotASource,
} from './__testUtils__/statusExpectation';
import {
  assertFitsCrd,
  listStatusFiles,
  OPERATORS_DIR,
  readYamlDocuments,
} from './__testUtils__/operatorFiles';
import {
  EXPECTED,
  lookupFrom,
  objectsOf,
} from './__testUtils__/statusSamples';
import type { KubeObject } from './types';

const READY_STATUS: Record<DatabasePhase, string> = {
  Pending: 'False',
  Provisioning: 'False',
  Ready: 'True',
  Updating: 'False',
  Degraded: 'False',
  Failed: 'False',
  Paused: 'False',
  Deleting: 'False',
  Unknown: 'Unknown',
};

describe('upstream status samples', () => {
  const files = listStatusFiles();

  it('finds the shared status samples', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('has an expectation for every status sample and no stale rows', () => {
    expect(files.filter(f => !(f in EXPECTED))).toEqual([]);
    expect(Object.keys(EXPECTED).filter(k => !files.includes(k))).toEqual([]);
  });

  const notSources = files.filter(
    f => EXPECTED[f] && 'notASource' in EXPECTED[f],
  );
  const awaiting = files.filter(
    f => EXPECTED[f] && 'awaitingAdapter' in EXPECTED[f],
  );
  const sources = files.filter(
    f =>
      EXPECTED[f] &&
      !('notASource' in EXPECTED[f]) &&
      !('awaitingAdapter' in EXPECTED[f]),
  );

  it.each([...notSources, ...awaiting])('%s is claimed by no adapter', file => {
    const row = EXPECTED[file] as NotASource | AwaitingAdapter;
    const docs = readYamlDocuments(
      path.join(OPERATORS_DIR, file),
    ) as KubeObject[];
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      expect(
        findAdapterForObject(
          doc.apiVersion ?? row.apiVersion,
          doc.kind ?? row.kind,
        ),
      ).toBeUndefined();
    }
  });

  it.each(sources)('%s', file => {
    const expectation = EXPECTED[file] as Expectation;
    const objects = objectsOf(file, expectation);
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const found = findAdapterForObject(object.apiVersion, object.kind);
      if (!found)
        throw new Error(`no adapter for ${object.apiVersion} ${object.kind}`);
      if (expectation.wrap) {
        // The wrap is ours and must fit the CRD; the status is upstream's, verbatim, and a
        // docs snippet may elide fields the schema requires (lastTransitionTime).
        const { status: _upstream, ...wrapped } = object;
        assertFitsCrd(file.split('/')[0], found.kind, wrapped);
      }

      const instance = found.adapter.project(
        object,
        found.kind,
        lookupFrom(expectation),
      );

      const { phase, reason, message } = expectation;
      expect(instance.status).toMatchObject({
        phase,
        reason,
        ...(message !== undefined && { message }),
      });
      // The upstream status is attached untouched.
      expect(instance.status?.operatorStatus).toEqual(object.status);
      expect(
        instance.status?.conditions?.find(c => c.type === 'Ready')?.status,
      ).toBe(READY_STATUS[phase]);
    }
  });
});
