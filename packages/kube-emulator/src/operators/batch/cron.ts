/**
 * Cron schedules as the two parsers the emulated controllers use read them: Kubernetes' CronJob
 * controller (robfig/cron v3 standard parser: 5 fields, descriptors like @daily) and
 * CloudNativePG's ScheduledBackup (6 fields, seconds first). Times are UTC.
 */
export interface CronSchedule {
  seconds: Set<number>;
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

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function value(text: string, names?: string[], offset = 0): number {
  const i = names?.indexOf(text.toUpperCase()) ?? -1;
  if (i >= 0) return i + offset;
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}`);
  return Number(text);
}

function field(text: string, min: number, max: number, names?: string[], offset = 0): { set: Set<number>; star: boolean } {
  const set = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : value(stepText);
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      lo = min;
      hi = max;
      if (stepText === undefined) star = true;
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      lo = value(a, names, offset);
      hi = value(b, names, offset);
    } else {
      lo = value(range, names, offset);
      hi = stepText === undefined ? lo : max;
    }
    if (lo < min || hi > max || lo > hi || step < 1)
      throw new Error(`end of range (${hi}) above maximum (${max}): ${text}`);
    for (let v = lo; v <= hi; v += step) set.add(v);
  }
  return { set, star };
}

/** Parses a 5-field (or, with `withSeconds`, 6-field) schedule; throws on a bad one. */
export function parseCron(expr: string, withSeconds = false): CronSchedule {
  const text = expr.trim();
  const described = DESCRIPTORS[text];
  const parts = (described ? `${withSeconds ? '0 ' : ''}${described}` : text).split(/\s+/);
  const expected = withSeconds ? 6 : 5;
  if (parts.length !== expected)
    throw new Error(`expected exactly ${expected} fields, found ${parts.length}: ${expr}`);
  const [sec, min, hour, dom, month, dow] = withSeconds ? parts : ['0', ...parts];
  const days = field(dom, 1, 31);
  const weekdays = field(dow, 0, 7, DAYS);
  if (weekdays.set.delete(7)) weekdays.set.add(0);
  return {
    seconds: field(sec, 0, 59).set,
    minutes: field(min, 0, 59).set,
    hours: field(hour, 0, 23).set,
    days: days.set,
    months: field(month, 1, 12, MONTHS, 1).set,
    weekdays: weekdays.set,
    dayOr: !days.star && !weekdays.star,
  };
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.days.has(d.getUTCDate());
  const dow = s.weekdays.has(d.getUTCDay());
  return s.dayOr ? dom || dow : dom && dow;
}

/** The first time strictly after `after` that the schedule fires (undefined if none within 5 years). */
export function nextCron(s: CronSchedule, after: Date): Date | undefined {
  const t = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
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
    } else if (!s.seconds.has(t.getUTCSeconds())) {
      t.setUTCSeconds(t.getUTCSeconds() + 1, 0);
    } else return t;
  }
  return undefined;
}

/** The last time at or before `now` the schedule fired after `since` (undefined if it has not). */
export function lastCronBetween(s: CronSchedule, since: Date, now: Date): Date | undefined {
  let last: Date | undefined;
  // bounded like the CronJob controller, which gives up counting after 100 missed starts
  for (let t = nextCron(s, since), n = 0; t && t <= now && n < 1000; t = nextCron(s, t), n++) last = t;
  return last;
}
