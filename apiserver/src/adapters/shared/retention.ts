import { invalid, type FieldCause } from '../../writes/FieldCause';

/**
 * A schedule's `spec.retention`: a maximum age, `<n>d` (days) or a Go duration of hours,
 * minutes and seconds (`720h`, `36h30m`), as the operators that keep backups per schedule take
 * it (mariadb-operator `spec.maxRetention`, a metav1.Duration: Go's time.ParseDuration, which
 * has no days). Pure.
 */
const DAYS = /^(\d+)d$/;
const GO_DURATION = /^(\d+(\.\d+)?(h|m|s|ms|us|µs|ns))+$/;

/** Every reason `retention` at `path` is not a maximum age. */
export function validateRetention(retention: unknown, path = 'spec.retention'): FieldCause[] {
  if (retention === undefined) return [];
  if (typeof retention !== 'string' || !(DAYS.test(retention) || GO_DURATION.test(retention)))
    return [invalid(path, retention, 'must be a maximum age: days ("30d") or a duration in hours, minutes, seconds ("720h")')];
  if (Number(DAYS.exec(retention)?.[1] ?? 1) === 0 || /^(0+(\.0+)?[a-zµ]+)+$/.test(retention))
    return [invalid(path, retention, 'must be longer than zero')];
  return [];
}

/** `retention` as a Go duration (days become hours: `30d` is `720h`); others unchanged. */
export function asGoDuration(retention: string): string {
  const days = DAYS.exec(retention);
  return days ? `${Number(days[1]) * 24}h` : retention;
}
