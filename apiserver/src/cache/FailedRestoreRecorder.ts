import { ANNOTATION_RESTORE_FAILED } from '@internal/plugin-databases-common';
import { InstanceRecorder, type InstanceRecorderOptions } from './InstanceRecorder';

/** The reason an adapter gives an instance whose restore failed (see ANNOTATION_RESTORE_FAILED). */
export const RESTORE_FAILED = 'RestoreFailed';

/**
 * Keeps, on the operator object of an instance seen `Failed` with reason `RestoreFailed`, the
 * failure in the operator's words (`dbaas.platform.dev/restore-failed`): mariadb-operator counts a
 * failed bootstrap restore as restored and deletes the Restore that said it failed, after which
 * only this record tells the truth, on every replica and after a restart. Written once; never
 * removed (the data did not come back).
 */
export class FailedRestoreRecorder extends InstanceRecorder {
  constructor(options: InstanceRecorderOptions) {
    super({
      ...options,
      what: 'a failed restore',
      record: instance =>
        instance.status?.phase === 'Failed' && instance.status.reason === RESTORE_FAILED
          ? { annotation: ANNOTATION_RESTORE_FAILED, value: instance.status.message ?? RESTORE_FAILED }
          : undefined,
    });
  }
}
