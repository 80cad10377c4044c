import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';

/**
 * `{ <sizeKey>: size, storageClassName? }`: how most operators spell a volume request. The
 * class is left out when none is asked for, so the cluster's default class applies.
 */
export function storageRequest(
  storage: DatabaseInstanceSpec['storage'],
  sizeKey = 'size',
): Record<string, unknown> {
  return {
    [sizeKey]: storage?.size,
    ...(storage?.storageClassName && {
      storageClassName: storage.storageClassName,
    }),
  };
}
