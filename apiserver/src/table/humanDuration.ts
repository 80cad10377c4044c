/**
 * Formats a duration like apimachinery's `duration.HumanDuration` (what kubectl shows in AGE
 * columns). kubectl prints Table cells verbatim, so the server must pre-render ages.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // up to one second in the future is tolerated as clock skew
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The least duration after `ms` at which {@link humanDuration} may read differently: the next
 * whole second below 10 minutes, minute below 8 hours, hour below 8 days, and day after that.
 * (It may read the same there; it never changes before.)
 */
export function humanDurationChangesAt(ms: number): number {
  let unit = DAY;
  if (ms < 10 * MINUTE) unit = SECOND;
  else if (ms < 8 * HOUR) unit = MINUTE;
  else if (ms < 8 * DAY) unit = HOUR;
  return (Math.floor(ms / unit) + 1) * unit;
}

/** AGE cell: kubectl's `translateTimestampSince` (`<unknown>` without a timestamp). */
export function age(creationTimestamp: string | undefined, now: number): string {
  if (!creationTimestamp) return '<unknown>';
  const t = Date.parse(creationTimestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}
