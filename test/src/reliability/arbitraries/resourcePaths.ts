import fc from 'fast-check';
import { hostileString } from './hostileStrings';
import { objectName } from './objectNames';
import { pathSegment } from './pathSegments';

export const GROUP_VERSION_PATH = '/apis/dbaas.platform.dev/v1alpha1';

/** A resource path and what it means, so an oracle can check answers against the request. */
export interface ResourcePath {
  path: string;
  /** The namespace as meant (before any encoding trick), '' for cluster scope. */
  namespace: string;
  resource: string;
  name: string;
  subresource: string;
}

/** Names and namespaces that exist, to aim most cases at real objects. */
export interface KnownObjects {
  namespaces: readonly string[];
  /** Existing instances as [namespace, name]. */
  instances: ReadonlyArray<readonly [string, string]>;
  engines: readonly string[];
}

interface Target {
  namespaced: boolean;
  namespace: string;
  resource: string;
  name: string | null;
  subresource: string | null;
}

const subresourceOf = (served: readonly string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constantFrom(...served) },
    { weight: 1, arbitrary: hostileString(10) },
  );

/** Mostly the right shape for each resource (namespaced instances, cluster-wide engines), sometimes not. */
function target(known: KnownObjects, subresources: readonly string[]): fc.Arbitrary<Target> {
  const instance = fc.record({
    namespaced: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    object: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...known.instances) },
      { weight: 2, arbitrary: fc.tuple(objectName(known.namespaces), objectName(known.instances.map(i => i[1]))) },
    ),
    collection: fc.constantFrom(false, false, true),
    subresource: subresourceOf(subresources),
  }).map(({ object: [namespace, name], collection, ...t }) => ({ ...t, namespace, resource: 'databaseinstances', name: collection ? null : name }));
  const engine = fc.record({
    namespaced: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    namespace: objectName(known.namespaces),
    name: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: objectName(known.engines) }),
    subresource: subresourceOf(['status']),
  }).map(t => ({ ...t, resource: 'databaseengines' }));
  const other = fc.record({
    namespaced: fc.boolean(),
    namespace: objectName(known.namespaces),
    resource: fc.oneof(
      fc.constantFrom('dbi', 'DatabaseInstances', 'databaseinstance', 'databases', 'secrets', 'databaseinstances.dbaas.platform.dev', ''),
      hostileString(16),
    ),
    name: fc.option(objectName(), { freq: 2 }),
    subresource: fc.option(hostileString(10), { freq: 3 }),
  });
  return fc.oneof({ weight: 6, arbitrary: instance }, { weight: 2, arbitrary: engine }, { weight: 1, arbitrary: other });
}

/**
 * A path under the group-version: namespaced or cluster-wide collections and objects, the
 * deprecated `/watch/` prefix, subresources (`status`, `connection`, unknown), with names,
 * namespaces and every segment possibly hostile or encoded with a path trick.
 */
export function resourcePath(known: KnownObjects, subresources: readonly string[] = ['status']): fc.Arbitrary<ResourcePath> {
  return fc
    .record({ t: target(known, subresources), watchPrefix: fc.constantFrom(false, false, false, true) })
    .chain(({ t, watchPrefix }) =>
      fc
        .tuple(pathSegment(t.namespace), pathSegment(t.resource), pathSegment(t.name ?? ''), pathSegment(t.subresource ?? ''))
        .map(([ns, res, name, sub]) => {
          let path = GROUP_VERSION_PATH + (watchPrefix ? '/watch' : '');
          if (t.namespaced) path += `/namespaces/${ns}`;
          path += `/${res}`;
          if (t.name !== null) path += `/${name}`;
          if (t.name !== null && t.subresource !== null) path += `/${sub}`;
          return {
            path,
            namespace: t.namespaced ? t.namespace : '',
            resource: t.resource,
            name: t.name ?? '',
            subresource: t.name !== null ? (t.subresource ?? '') : '',
          };
        }),
    );
}
