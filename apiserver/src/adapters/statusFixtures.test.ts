import { describe, it, expect } from '@jest/globals';
import path from 'node:path';
import type { DatabasePhase } from '@internal/plugin-databases-common';
import { existsSync } from 'node:fs';
import { adapters, findAdapterForObject } from './registry';
import type {
  AwaitingAdapter,
  Expectation,
  NotASource,
  StatusExpectations,
} from './__testUtils__/statusExpectation';
import {
  assertFitsCrd,
  listStatusFiles,
  OPERATORS_DIR,
  readYamlDocuments,
} from './__testUtils__/operatorFiles';
import type { KubeObject, RelatedLookup } from './types';

/**
 * Every adapter folder's rows: each keeps what its operator's status samples must be served as
 * (`<folder>/__testUtils__/statusExpectations.ts`), so an operator brings its fixtures' verdicts
 * in its own folder.
 */
const EXPECTED: StatusExpectations = Object.assign(
  {},
  ...adapters
    .map(a => path.join(__dirname, a.id, '__testUtils__', 'statusExpectations.ts'))
    .filter(file => existsSync(file))
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    .map(file => (require(file) as { statusExpectations: StatusExpectations }).statusExpectations),
);

const NAMESPACE = 'fixtures';

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

function lookupFrom(expectation: Expectation): RelatedLookup {
  return {
    get: ref =>
      expectation.related?.find(
        r =>
          r.ref.name === ref.name &&
          r.ref.type.kind === ref.type.kind &&
          r.ref.type.group === ref.type.group &&
          ref.namespace === NAMESPACE,
      )?.object,
  };
}

/** The objects a status file describes, wrapping status-only fragments as the table says. */
function objectsOf(file: string, expectation: Expectation): KubeObject[] {
  return readYamlDocuments(path.join(OPERATORS_DIR, file)).map(doc => {
    const object = doc as KubeObject;
    if (object.kind)
      return {
        ...object,
        metadata: { namespace: NAMESPACE, ...object.metadata },
      };
    if (!expectation.wrap)
      throw new Error(`${file} is status-only: give it a wrap in EXPECTED`);
    const name = path.basename(file).split('.')[0];
    return {
      apiVersion: expectation.wrap.apiVersion,
      kind: expectation.wrap.kind,
      metadata: { name, namespace: NAMESPACE },
      spec: expectation.wrap.spec,
      status: object.status,
    };
  });
}

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
