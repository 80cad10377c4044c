import fc from 'fast-check';
import type { Caller } from '../hostileHarness';
import { objectName } from './objectNames';
import { pathSegment, percentEncode } from './pathSegments';
import { GROUP_VERSION_PATH } from './resourcePaths';
import { mostlyDryRunWriteQuery, type WriteQuery } from './writeQueries';

/**
 * Who writes: mostly admin (system:masters, no SubjectAccessReview), alice who edits team-a,
 * carol who may only read (both go through SubjectAccessReviews).
 */
export const writeCaller = (adminWeight = 8): fc.Arbitrary<Caller> =>
  fc.oneof({ weight: adminWeight, arbitrary: fc.constant<Caller>('admin') }, { weight: 3, arbitrary: fc.constant<Caller>('alice') }, { weight: 1, arbitrary: fc.constant<Caller>('carol') });

/** An instance to write to: mostly one of team-a (where alice may write), else any served one. */
export const writeTarget = (targets: ReadonlyArray<readonly [string, string]>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...targets.filter(t => t[0] === 'team-a')) }, { weight: 1, arbitrary: fc.constantFrom(...targets) });

/** What an update or a patch of one instance is sent as, but for its body. */
export interface InstanceWrite {
  caller: Caller;
  target: readonly [string, string];
  /** The object segment of the URL when it is not the target's own name (null when it is). */
  url: string | null;
  query: WriteQuery;
}

/**
 * The fields (for `fc.record`) of an update or patch of one of `targets`: the URL names the
 * target in `ownUrlWeight` cases of `ownUrlWeight + 1`, else something else (another valid name,
 * a hostile one, a path trick).
 */
export const instanceWriteFields = (targets: ReadonlyArray<readonly [string, string]>, ownUrlWeight: number) => ({
  caller: writeCaller(),
  target: writeTarget(targets),
  url: fc.oneof({ weight: ownUrlWeight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: objectName().chain(pathSegment) }),
  query: mostlyDryRunWriteQuery(),
});

/** The path an update or patch is sent to. */
export const instanceWritePath = (w: InstanceWrite) =>
  `${GROUP_VERSION_PATH}/namespaces/${percentEncode(w.target[0])}/databaseinstances/${w.url ?? percentEncode(w.target[1])}${w.query.text}`;
