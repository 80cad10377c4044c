import type { ObjectStore, StoredObject } from '../store/types';
import { APISERVICES, APIServiceCondition, availableCondition } from './apiService';
import type { AvailabilityCondition } from './evaluateAvailability';

/**
 * Writes an APIService's Available condition through the status subresource, keeping
 * `lastTransitionTime` while the status does not change and retrying on conflicts.
 * Returns the object as stored afterwards, or undefined when it is gone or could not be written.
 */
export function writeAvailableCondition(
  store: ObjectStore,
  name: string,
  condition: AvailabilityCondition,
  log: (message: string, fields?: Record<string, unknown>) => void,
): StoredObject | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    let current: StoredObject | undefined;
    try {
      current = store.get(APISERVICES, undefined, name);
    } catch {
      current = undefined;
    }
    if (!current) return undefined;
    const previous = availableCondition(current);
    if (
      previous &&
      previous.status === condition.status &&
      previous.reason === condition.reason &&
      previous.message === condition.message
    ) {
      return current;
    }
    const conditions = (
      (current.status as { conditions?: APIServiceCondition[] } | undefined)
        ?.conditions ?? []
    ).filter(c => c?.type !== 'Available');
    const next: APIServiceCondition = {
      type: 'Available',
      ...condition,
      lastTransitionTime:
        previous &&
        previous.status === condition.status &&
        previous.lastTransitionTime
          ? previous.lastTransitionTime
          : new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
    try {
      return store.update(
        APISERVICES,
        {
          ...current,
          status: {
            ...((current.status as object) ?? {}),
            conditions: [...conditions, next],
          },
        },
        { subresource: 'status' },
      );
    } catch (e) {
      // a concurrent writer changed the object: re-read and try again
      if ((e as { code?: number }).code !== 409) {
        log('Cannot write APIService status', {
          apiService: name,
          error: (e as Error).message,
        });
        return undefined;
      }
    }
  }
  return undefined;
}
