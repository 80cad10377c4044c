import type { StoredObject } from '../store/types';

/**
 * The emulator's switch (never a real operator's) that makes the restore of a new instance
 * fail, for tests: `"true"` on the operator object. CloudNativePG's recovery Job then fails and
 * the Cluster becomes unrecoverable, as the real operator reports it.
 */
export const FAIL_RESTORE_ANNOTATION = 'emulator.dbaas.platform.dev/fail-restore';

export const restoreFails = (cr: StoredObject): boolean =>
  cr.metadata.annotations?.[FAIL_RESTORE_ANNOTATION] === 'true';
