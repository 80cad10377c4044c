import { splitMirroredEventMessage, type InstanceKubeEvent } from '@internal/plugin-databases-common';

/** A core/v1 Event as the portal lists it; the object it is about in a column of its own. */
export function toInstanceKubeEvent(e: any): InstanceKubeEvent {
  const { about, message } = splitMirroredEventMessage(e.related, e.message);
  return {
    ...(e.metadata?.name && { name: e.metadata.name }),
    type: e.type ?? 'Normal',
    reason: e.reason,
    message,
    count: e.count ?? e.series?.count ?? 1,
    firstTimestamp: e.firstTimestamp ?? e.eventTime ?? undefined,
    lastTimestamp: e.lastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? undefined,
    from: e.source?.component ?? e.reportingComponent ?? undefined,
    ...(about && { about }),
  };
}

/** Oldest first, as `kubectl describe` lists events. */
export const byLastTimestamp = (a: InstanceKubeEvent, b: InstanceKubeEvent) =>
  (a.lastTimestamp ?? '').localeCompare(b.lastTimestamp ?? '');
