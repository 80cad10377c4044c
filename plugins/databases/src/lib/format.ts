import {
  ANNOTATION_OWNER,
  DatabaseInstance,
} from '@internal/plugin-databases-common';

/** Short age like kubectl prints it: `45s`, `12m`, `3h`, `5d`. */
export function formatAge(timestamp: string | undefined, now: number = Date.now()): string {
  if (!timestamp) return '';
  const seconds = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (Number.isNaN(seconds)) return '';
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** `ready/desired` replicas, or an empty string when the operator reports none. */
export function formatReplicas(instance: DatabaseInstance): string {
  const r = instance.status?.replicas;
  const desired = r?.desired ?? instance.spec.replicas;
  if (r?.ready === undefined && desired === undefined) return '';
  // `?` where the operator does not say how many are ready: never `0/3` next to Ready.
  return `${r?.ready ?? '?'}/${desired ?? '?'}`;
}

/** The owning team's entity ref, if the instance has one. */
export function ownerOf(instance: DatabaseInstance): string | undefined {
  return instance.metadata.annotations?.[ANNOTATION_OWNER];
}

/** The same instance? (cluster, namespace and name). */
export function sameInstance(
  a: { cluster: string; instance: DatabaseInstance },
  b: { cluster: string; instance: DatabaseInstance },
): boolean {
  return (
    a.cluster === b.cluster &&
    a.instance.metadata.namespace === b.instance.metadata.namespace &&
    a.instance.metadata.name === b.instance.metadata.name
  );
}
