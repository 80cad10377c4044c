import type { InstanceEvent } from '@internal/plugin-databases-common';
import type { InstanceChange } from '../watch/types';

/** The SSE payload of one watch change; `transition` is set when the phase moved. */
export function toInstanceEvent(change: InstanceChange, at = new Date()): InstanceEvent {
  const to = change.instance.status?.phase;
  const from = change.previous?.status?.phase;
  const moved = change.type !== 'DELETED' && to !== undefined && to !== from;
  return {
    type: change.type,
    cluster: change.cluster,
    instance: change.instance,
    ...(moved
      ? {
          transition: {
            cluster: change.cluster,
            namespace: change.instance.metadata.namespace ?? '',
            name: change.instance.metadata.name ?? '',
            ...(from ? { from } : {}),
            to: to!,
            ...(change.instance.status?.reason ? { reason: change.instance.status.reason } : {}),
            ...(change.instance.status?.message ? { message: change.instance.status.message } : {}),
            at: at.toISOString(),
          },
        }
      : {}),
  };
}
