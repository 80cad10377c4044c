import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';

/**
 * `{ <sizeKey>: size, <classKey>?: class }`: how operators spell a volume request (most as
 * `size` and `storageClassName`). The class is left out when none is asked for, so the
 * cluster's default class applies.
 */
export function storageRequest(
  storage: DatabaseInstanceSpec['storage'],
  sizeKey = 'size',
  classKey = 'storageClassName',
): Record<string, unknown> {
  return {
    [sizeKey]: storage?.size,
    ...(storage?.storageClassName && { [classKey]: storage.storageClassName }),
  };
}
