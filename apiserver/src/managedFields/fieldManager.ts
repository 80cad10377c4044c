import { DATABASES_GROUP_VERSION } from '@internal/plugin-databases-common';
import {
  compareObjects,
  difference,
  intersection,
  isEmptyComparison,
  isJsonObject,
  joinPath,
  jsonEqual,
  leafPaths,
  mergeConfig,
  removePath,
  splitPath,
  trackedPart,
  union,
  type FieldPath,
  type FieldSet,
  type JsonObject,
} from './fieldPaths';
import { sameManager, type Manager } from './managers';

/**
 * Who owns which field of an instance, after the rules of kube-apiserver's field manager
 * (structured-merge-diff's `Updater` and the managers wrapped around it), for the subset of
 * types a DatabaseInstance has: maps by key and atomic scalars.
 */

/** The manager kube-apiserver gives the fields of an object that had none at its first apply. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';
/** kubectl's server-side apply manager: the only one that migrates from client-side apply. */
const KUBECTL_SSA_MANAGER = 'kubectl';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** A field another manager owns with another value: the apply is refused unless forced. */
export interface FieldConflict {
  manager: Manager;
  path: FieldPath;
}

const changedFields = (before: JsonObject, after: JsonObject) => {
  const cmp = compareObjects(before, after);
  return { cmp, changed: union(cmp.added, cmp.modified) };
};

/**
 * A non-apply write (create, PUT, merge or JSON patch) by `manager`: the fields it added or
 * changed become its own (taken from whoever had them; an update never conflicts) and fields
 * it removed leave every manager. Its time moves only when it took a field, so a write that
 * changes nothing changes no record.
 */
export function recordUpdate(before: unknown, after: unknown, managers: readonly Manager[], manager: string, now: string): Manager[] {
  const { cmp, changed } = changedFields(trackedPart(before), trackedPart(after));
  const gone = union(changed, cmp.removed);
  const self = { manager, operation: 'Update' as const };
  const out = managers.filter(m => !sameManager(m, self)).map(m => ({ ...m, fields: difference(m.fields, gone) }));
  const previous = managers.find(m => sameManager(m, self));
  const kept = previous ? difference(previous.fields, cmp.removed) : new Set<string>();
  if (changed.size) out.push({ ...self, apiVersion: DATABASES_GROUP_VERSION, time: now, fields: union(kept, changed) });
  else if (previous) out.push({ ...previous, fields: kept });
  return out.filter(m => m.fields.size > 0);
}

/** Every path of the sets and every map above one. */
function withAncestors(sets: FieldSet[]): FieldSet {
  const out: FieldSet = new Set();
  for (const set of sets) {
    for (const path of set) {
      const segments = splitPath(path);
      for (let i = 1; i <= segments.length; i++) out.add(joinPath(segments.slice(0, i)));
    }
  }
  return out;
}

/** The outcome of an apply: the object and managers to write, or the conflicts refusing it. */
export type ApplyOutcome =
  | { object: JsonObject; managers: Manager[]; changed: boolean }
  | { conflicts: FieldConflict[] };

/**
 * kubectl's last-applied copy, where it agrees with the live object: conflicts on those fields
 * come from client-side apply by the same hand, and `kubectl apply --server-side` takes them
 * over without `--force-conflicts` (kube-apiserver's lastAppliedManager).
 */
function allowedByLastApplied(live: JsonObject): FieldSet {
  const annotations = (live.metadata as JsonObject | undefined)?.annotations as Record<string, string> | undefined;
  const raw = annotations?.[LAST_APPLIED];
  if (!raw) return new Set();
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(raw);
  } catch {
    return new Set();
  }
  const tracked = trackedPart(lastApplied);
  return difference(leafPaths(tracked), compareObjects(tracked, live).modified);
}

/**
 * A server-side apply of `config` (its tracked part) to `live` by `manager`: the config is
 * merged in; fields this manager applied before and dropped now are removed unless another
 * manager owns them; a changed field owned by another manager is a conflict unless `force`,
 * which takes it over; co-owned when the values agree. The manager's Apply entry then holds
 * exactly the config's fields. An object that had no managers gets them first, all under
 * `before-first-apply`, as kube-apiserver gives objects older than field tracking.
 */
export function applyConfiguration(
  liveObject: unknown,
  configObject: unknown,
  current: readonly Manager[],
  manager: string,
  force: boolean,
  now: string,
): ApplyOutcome {
  const live = trackedPart(liveObject);
  const config = trackedPart(configObject);
  let managers = [...current];
  if (managers.length === 0 && liveObject !== undefined) managers = recordUpdate(undefined, live, [], BEFORE_FIRST_APPLY, now);
  const self = { manager, operation: 'Apply' as const };
  const previous = managers.find(m => sameManager(m, self));
  const others = managers.filter(m => !sameManager(m, self));
  const applied = leafPaths(config);

  let merged = mergeConfig(live, config);
  // a field is kept while anyone (this config included) owns it or something below it: a
  // migrated client-side apply record owns the `spec` map itself, which must not take the spec
  const kept = withAncestors([applied, ...others.map(m => m.fields)]);
  for (const path of previous ? difference(previous.fields, applied) : []) {
    if (!kept.has(path)) merged = removePath(merged, path);
  }
  const { cmp, changed } = changedFields(live, merged);
  let conflicts = others.flatMap(m => [...intersection(m.fields, changed)].map(path => ({ manager: m, path })));
  if (conflicts.length && !force && manager === KUBECTL_SSA_MANAGER) {
    const allowed = allowedByLastApplied(live);
    conflicts = conflicts.filter(c => !allowed.has(c.path));
  }
  if (conflicts.length && !force) return { conflicts };

  // what changed leaves its other owners: forced, or allowed by kubectl's last-applied copy
  const taken = union(changed, cmp.removed);
  const objectChanged = !isEmptyComparison(cmp);
  const fieldsSame = previous !== undefined && jsonEqual([...previous.fields].sort(), [...applied].sort());
  const time = objectChanged || !fieldsSame || !previous?.time ? now : previous.time;
  const next: Manager[] = [
    ...others.map(m => ({ ...m, fields: difference(m.fields, taken) })),
    { ...self, apiVersion: DATABASES_GROUP_VERSION, time, fields: applied },
  ];
  if (manager === KUBECTL_SSA_MANAGER) merged = withLastApplied(merged, configObject);
  return { object: merged, managers: next.filter(m => m.fields.size > 0), changed: objectChanged };
}

/**
 * kubectl's last-applied copy kept in step with what `kubectl apply --server-side` applied,
 * where there is one (kube-apiserver's lastAppliedUpdater), so a later client-side
 * `kubectl apply` diffs against what was applied last, not against an older file.
 */
function withLastApplied(merged: JsonObject, configObject: unknown): JsonObject {
  const annotations = (merged.metadata as JsonObject | undefined)?.annotations as Record<string, string> | undefined;
  if (annotations?.[LAST_APPLIED] === undefined || !isJsonObject(configObject)) return merged;
  const meta = isJsonObject(configObject.metadata) ? configObject.metadata : {};
  const configAnnotations = { ...(meta.annotations as Record<string, string> | undefined) };
  delete configAnnotations[LAST_APPLIED];
  const copy = { ...configObject, metadata: { ...meta, annotations: configAnnotations } };
  if (!Object.keys(configAnnotations).length) delete (copy.metadata as JsonObject).annotations;
  return {
    ...merged,
    metadata: { ...(merged.metadata as JsonObject), annotations: { ...annotations, [LAST_APPLIED]: JSON.stringify(copy) } },
  };
}
