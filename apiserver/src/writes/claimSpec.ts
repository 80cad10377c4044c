import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';

/** A PersistentVolumeClaim spec for the instance's data volume (one writer node at a time). */
export function claimSpec(
  storage: DatabaseInstanceSpec['storage'],
): Record<string, unknown> {
  return {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: storage?.size } },
    ...(storage?.storageClassName && {
      storageClassName: storage.storageClassName,
    }),
  };
}
