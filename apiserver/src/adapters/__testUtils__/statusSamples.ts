import path from 'node:path';
import { existsSync } from 'node:fs';
import { adapters } from '../registry';
import type { Expectation, StatusExpectations } from './statusExpectation';
import { OPERATORS_DIR, readYamlDocuments } from './operatorFiles';
import type { KubeObject, RelatedLookup } from '../types';

/**
 * Every adapter folder's rows: each keeps what its operator's status samples must be served as
 * (`<folder>/__testUtils__/statusExpectations.ts`), so an operator brings its fixtures' verdicts
 * in its own folder.
 */
export const EXPECTED: StatusExpectations = Object.assign(
  {},
  ...adapters
    .map(a =>
      path.join(
        __dirname,
        '..',
        a.id,
        '__testUtils__',
        'statusExpectations.ts',
      ),
    )
    .filter(file => existsSync(file))
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    .map(
      file =>
        (require(file) as { statusExpectations: StatusExpectations })
          .statusExpectations,
    ),
);

export const NAMESPACE = 'fixtures';

export function lookupFrom(expectation: Expectation): RelatedLookup {
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
export function objectsOf(
  file: string,
  expectation: Expectation,
): KubeObject[] {
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
