import { ANNOTATION_RESTORE_FAILED } from '@internal/plugin-databases-common';
import { InstanceRecorder, type InstanceRecorderOptions } from './InstanceRecorder';

/** The reason an adapter gives an instance whose restore failed (see ANNOTATION_RESTORE_FAILED). */
export const RESTORE_FAILED = 'RestoreFailed';

/**
 * Keeps, on the operator object of an instance seen `Failed` with reason `RestoreFailed`, the
 * failure in the operator's words (`dbaas.platform.dev/restore-failed`): mariadb-operator counts a
 * failed bootstrap restore as restored and deletes the Restore that said it failed, after which
 * only this record tells the truth, on every replica and after a restart. Written once, never
 * removed (the data did not come back), and not guarded by the object's resourceVersion: the
 * operator writes the MariaDB at the same moment, and a write dropped on its 409 would find the
 * instance no longer Failed once the Restore is gone. Between that deletion and this write
 * reaching the cache, the instance can read Ready for a moment.
 */
export class FailedRestoreRecorder extends InstanceRecorder {
  constructor(options: InstanceRecorderOptions) {
    super({
      ...options,
      what: 'a failed restore',
      // the operator marks the MariaDB restored and deletes the Restore right after: not guarded
      guarded: false,
      record: instance =>
        instance.status?.phase === 'Failed' && instance.status.reason === RESTORE_FAILED
          ? { annotation: ANNOTATION_RESTORE_FAILED, value: instance.status.message ?? RESTORE_FAILED }
          : undefined,
    });
  }
}
