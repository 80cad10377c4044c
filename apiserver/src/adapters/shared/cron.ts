import { invalid, required, type FieldCause } from '../../writes/FieldCause';

/**
 * The 5-field cron of a DatabaseBackupSchedule (`minute hour day-of-month month day-of-week`,
 * UTC), read as the parsers behind the operators read it: robfig/cron v3's standard parser
 * (kube's CronJob controller, which runs mariadb-operator's scheduled Backups) and its 6-field
 * form with seconds first (CloudNativePG's ScheduledBackup, api/v1/scheduledbackup_types.go:
 * "includes an additional seconds specifier"). Pure.
 */
export interface CronFields {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Day of month and day of week both restricted: either matches (cron's OR rule). */
  dayOr: boolean;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'];
const RANGES: Array<[number, number, string[]?, number?]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12, MONTHS, 1],
  [0, 7, DAYS],
];

class CronError extends Error {}

function value(text: string, what: string, names?: string[], offset = 0): number {
  const i = names?.indexOf(text.toUpperCase()) ?? -1;
  if (i >= 0) return i + offset;
  if (!/^\d+$/.test(text)) throw new CronError(`${what}: ${JSON.stringify(text)} is not a number`);
  return Number(text);
}

function field(text: string, index: number): { set: Set<number>; star: boolean } {
  const [min, max, names, offset] = RANGES[index];
  const what = FIELD_NAMES[index];
  const set = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const pieces = part.split('/');
    if (pieces.length > 2 || part === '') throw new CronError(`${what}: ${JSON.stringify(part)} is not a cron term`);
    const [range, stepText] = pieces;
    const step = stepText === undefined ? 1 : value(stepText, what);
    let lo: number;
    let hi: number;
    if (range === '*' || (range === '?' && index >= 2 && index !== 3)) {
      [lo, hi] = [min, max];
      if (stepText === undefined) star = true;
    } else if (range.includes('-')) {
      const ends = range.split('-');
      if (ends.length !== 2) throw new CronError(`${what}: ${JSON.stringify(range)} is not a range`);
      lo = value(ends[0], what, names, offset);
      hi = value(ends[1], what, names, offset);
    } else {
      lo = value(range, what, names, offset);
      hi = stepText === undefined ? lo : max;
    }
    if (lo < min || hi > max) throw new CronError(`${what}: ${JSON.stringify(part)} is outside ${min}-${max}`);
    if (lo > hi) throw new CronError(`${what}: ${JSON.stringify(part)} starts after it ends`);
    if (step < 1) throw new CronError(`${what}: a step must be at least 1`);
    for (let v = lo; v <= hi; v += step) set.add(v);
  }
  return { set, star };
}

/** Parses a 5-field cron; throws an Error whose message says what is wrong. */
export function parseCron(expr: string): CronFields {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronError(`expected exactly 5 fields, found ${parts.length}`);
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => field(p, i));
  if (weekdays.set.delete(7)) weekdays.set.add(0);
  return {
    minutes: minutes.set,
    hours: hours.set,
    days: days.set,
    months: months.set,
    weekdays: weekdays.set,
    dayOr: !days.star && !weekdays.star,
  };
}

/**
 * Every reason `schedule` (at `path`) is not a 5-field cron this API takes. A 6-field cron is
 * refused with its own words: its seconds field could fire more often than once a minute, and
 * the API's schedules are 5-field for every operator (CloudNativePG's seconds are added here).
 */
export function validateCron(schedule: unknown, path = 'spec.schedule'): FieldCause[] {
  if (schedule === undefined || schedule === null || schedule === '')
    return [required(path, 'a 5-field cron: minute hour day-of-month month day-of-week (UTC), e.g. "0 3 * * *"')];
  if (typeof schedule !== 'string') return [invalid(path, schedule, 'must be a string: a 5-field cron')];
  const text = schedule.trim();
  const fields = text.split(/\s+/).length;
  if (text.startsWith('@'))
    return [invalid(path, schedule, 'descriptors (@daily, @every ...) are not accepted: give a 5-field cron: minute hour day-of-month month day-of-week (UTC)')];
  if (fields === 6)
    return [
      invalid(path, schedule, 'must be a 5-field cron (minute hour day-of-month month day-of-week, UTC): 6 fields carry seconds, and a schedule runs at most once a minute (the seconds are added where an operator needs them)'),
    ];
  try {
    parseCron(text);
  } catch (err) {
    if (!(err instanceof CronError)) throw err;
    return [invalid(path, schedule, `not a 5-field cron (minute hour day-of-month month day-of-week, UTC): ${err.message}`)];
  }
  return [];
}

/** CloudNativePG's 6-field form of a 5-field cron: fired at second 0. */
export const withSeconds = (cron: string): string => `0 ${cron.trim().split(/\s+/).join(' ')}`;

/**
 * The 5-field form of a CloudNativePG 6-field cron that fires at second 0; undefined for any
 * other (its seconds are not 0, or it is not 6 fields): such a schedule is served as written.
 */
export function withoutSeconds(cron: string): string | undefined {
  const parts = cron.trim().split(/\s+/);
  return parts.length === 6 && parts[0] === '0' ? parts.slice(1).join(' ') : undefined;
}

function dayMatches(s: CronFields, d: Date): boolean {
  const dom = s.days.has(d.getUTCDate());
  const dow = s.weekdays.has(d.getUTCDay());
  return s.dayOr ? dom || dow : dom && dow;
}

/** The first minute strictly after `after` at which `s` fires (UTC), undefined if none within 5 years. */
export function nextCronTime(s: CronFields, after: Date): Date | undefined {
  const t = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
  const limit = after.getTime() + 5 * 366 * 24 * 3600 * 1000;
  while (t.getTime() <= limit) {
    if (!s.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(s, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!s.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    } else if (!s.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
    } else return t;
  }
  return undefined;
}

/** RFC 3339 without milliseconds, as Kubernetes writes times. */
export const kubeTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Zones in which a 5-field cron means what it says (the API's crons are UTC). */
export const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/GMT', 'GMT', 'Etc/Zulu', 'Zulu']);

const later = (a: string | undefined, b: string | undefined) => {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
};

/**
 * When a CronJob running `cron` fires next: the first time after its last schedule (or the
 * schedule's creation) at which the cron matches, as the CronJob controller computes it
 * (pkg/controller/cronjob/utils.go nextScheduleTime); none while suspended, for a cron it cannot
 * parse, or in a zone other than UTC (the projection has no zone database).
 */
export function nextScheduledRun(o: { cron: string; suspended: boolean; timeZone?: string; lastScheduleTime?: string; createdAt?: string }): string | undefined {
  if (o.suspended) return undefined;
  if (o.timeZone !== undefined && !UTC_ZONES.has(o.timeZone)) return undefined;
  const from = later(o.lastScheduleTime, o.createdAt);
  if (!from || Number.isNaN(Date.parse(from))) return undefined;
  try {
    const next = nextCronTime(parseCron(o.cron), new Date(from));
    return next && kubeTime(next);
  } catch {
    return undefined;
  }
}
