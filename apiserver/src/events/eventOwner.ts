import type { KubeObject } from '../adapters/types';

/** The DatabaseInstance an event is mirrored onto. */
export interface EventOwner {
  namespace: string;
  name: string;
  uid: string;
}

/** What the mirror knows of an instance: its identity and the operator object it is projected from. */
export interface OwnerCandidate extends EventOwner {
  source: { apiVersion: string; kind: string; name: string };
}

/** The kind of the instances themselves: events about them are the mirror's own. */
export const INSTANCE_KIND = 'DatabaseInstance';

/**
 * Kinds an operator creates for an instance and names after it (`<instance>`, `<instance>-0`,
 * `<instance>-es-default`, `<instance>-router-…`, `<instance>-backup-…`).
 */
const MEMBER_KINDS = new Set([
  'Pod',
  'StatefulSet',
  'Deployment',
  'ReplicaSet',
  'Job',
  'CronJob',
  'Service',
  'PodDisruptionBudget',
]);
/** Where those kinds live: core, apps, batch, policy. */
const BUILTIN_GROUPS = new Set(['', 'apps', 'batch', 'policy']);
/** Claims are `<template>-<pod>` (a StatefulSet's volumeClaimTemplates) or the pod's own name. */
const CLAIM_KIND = 'PersistentVolumeClaim';

const groupOf = (apiVersion: string | undefined) => {
  const slash = (apiVersion ?? '').lastIndexOf('/');
  return slash < 0 ? '' : (apiVersion ?? '').slice(0, slash);
};

/** `name`, then each shorter prefix of it ending before a `-`, longest first. */
function* prefixes(name: string): Iterable<string> {
  yield name;
  for (let i = name.lastIndexOf('-'); i > 0; i = name.lastIndexOf('-', i - 1))
    yield name.slice(0, i);
}

/** The instance whose name is the longest `-`-bounded prefix of `name`, if any. */
function byPrefix(
  namespace: string,
  name: string,
  find: (namespace: string, name: string) => OwnerCandidate | undefined,
): OwnerCandidate | undefined {
  for (const prefix of prefixes(name)) {
    const found = find(namespace, prefix);
    if (found) return found;
  }
  return undefined;
}

/**
 * The instance a Kubernetes event is about, from its `involvedObject` alone (events carry no
 * labels and no owner): the operator object itself (same kind, group and name), or an object the
 * operator names after the instance, in the same namespace. A claim may carry its template's
 * name first (`storage-orders-db-0`). Events about instances themselves (the mirror's own)
 * and about anything else have none.
 */
export function eventOwner(
  event: KubeObject,
  find: (namespace: string, name: string) => OwnerCandidate | undefined,
): OwnerCandidate | undefined {
  const ref = (event as { involvedObject?: Record<string, string | undefined> })
    .involvedObject;
  const kind = ref?.kind;
  const name = ref?.name;
  const namespace = ref?.namespace || event.metadata?.namespace;
  if (!kind || !name || !namespace || kind === INSTANCE_KIND) return undefined;
  let found: OwnerCandidate | undefined;
  const builtin = BUILTIN_GROUPS.has(groupOf(ref.apiVersion));
  if (builtin && MEMBER_KINDS.has(kind)) {
    found = byPrefix(namespace, name, find);
  } else if (builtin && kind === CLAIM_KIND) {
    const starts = [0, ...[...name].flatMap((c, i) => (c === '-' ? [i + 1] : []))];
    for (const start of starts) {
      found = byPrefix(namespace, name.slice(start), find);
      if (found) break;
    }
  } else {
    const candidate = find(namespace, name);
    if (
      candidate?.source.kind === kind &&
      groupOf(candidate.source.apiVersion) === groupOf(ref.apiVersion)
    )
      found = candidate;
  }
  return found;
}
