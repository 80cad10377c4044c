import { jsonEqual } from '../../store/jsonEqual';
import type { StoredObject } from '../../store/types';

type Spec = Record<string, any>;

/**
 * An operator keeping its CronJob as it wants it (mariadb-operator's reconcileCronJob,
 * pkg/controller/batch/controller.go; mysql-operator's replace of `<cluster>-<schedule>-cb`): an
 * existing CronJob gets the desired history limits, timeZone, schedule, suspend and the Job
 * template's backoffLimit; the rest is left as it is. Undefined when nothing differs.
 */
export function cronJobPatch(existing: StoredObject, desired: Record<string, any>): StoredObject | undefined {
  const spec = { ...(existing.spec as Spec) };
  const want = desired.spec as Spec;
  let changed = false;
  // the fields the builder always sets (the API server defaults the others on create)
  for (const key of ['failedJobsHistoryLimit', 'successfulJobsHistoryLimit', 'timeZone', 'schedule', 'suspend']) {
    if (want[key] !== undefined && !jsonEqual(spec[key], want[key])) {
      spec[key] = want[key];
      changed = true;
    }
  }
  const backoffLimit = want.jobTemplate?.spec?.backoffLimit;
  if (backoffLimit !== undefined && spec.jobTemplate?.spec?.backoffLimit !== backoffLimit) {
    spec.jobTemplate = { ...spec.jobTemplate, spec: { ...spec.jobTemplate?.spec, backoffLimit } };
    changed = true;
  }
  return changed ? { ...existing, spec } : undefined;
}

