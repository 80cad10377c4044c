import type { InstanceKubeEvent, InstanceKubeEventChange } from '@internal/plugin-databases-common';

/** Newest last, as `kubectl describe` lists events. */
const byLastTimestamp = (a: InstanceKubeEvent, b: InstanceKubeEvent) =>
  (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? '');

/**
 * The list after one change from the watch: an event is known by its name (a repeat of it is a
 * MODIFIED with a higher count, which replaces it); a deleted one goes (the apiserver keeps the
 * newest few per instance and deletes the older).
 */
export function applyEventChange(list: InstanceKubeEvent[], change: InstanceKubeEventChange): InstanceKubeEvent[] {
  const { item } = change;
  const others = item.name === undefined ? list : list.filter(e => e.name !== item.name);
  if (change.type === 'DELETED') return others;
  return [...others, item].sort(byLastTimestamp);
}
