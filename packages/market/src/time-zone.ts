// Owns conversions between UTC milliseconds and wall-clock dates and times in an IANA time zone.
// Must hold: offsets come from Intl.DateTimeFormat (the tz database), so daylight saving is always right;
// dates are 'YYYY-MM-DD' strings and times 'HH:MM'. Must not: read the clock (no Date.now()).

export type ZonedParts = {
  readonly date: string;
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
};

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time at `atMs` in `timeZone`. */
export function zonedParts(atMs: number, timeZone: string): ZonedParts {
  const values: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(atMs)) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  const year = values.year ?? 0;
  const month = values.month ?? 0;
  const day = values.day ?? 0;
  return {
    date: formatDate(year, month, day),
    year,
    month,
    day,
    hour: values.hour ?? 0,
    minute: values.minute ?? 0,
    second: values.second ?? 0,
  };
}

/** Local time minus UTC at `atMs`, in ms (+19,800,000 in Asia/Kolkata; −14,400,000 in New York summer). */
export function offsetMs(atMs: number, timeZone: string): number {
  const p = zonedParts(atMs, timeZone);
  const wholeSecondMs = atMs - (((atMs % 1000) + 1000) % 1000);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - wholeSecondMs;
}

/** The local date ('YYYY-MM-DD') at `atMs` in `timeZone`. */
export function localDateOf(atMs: number, timeZone: string): string {
  return zonedParts(atMs, timeZone).date;
}

/** UTC ms of the wall-clock `time` ('HH:MM', '24:00' allowed) on `date` in `timeZone`. */
export function zonedTimeToMs(date: string, time: string, timeZone: string): number {
  const localAsUtc = dateToUtcMs(date) + minutesOfDay(time) * 60_000;
  const firstGuess = localAsUtc - offsetMs(localAsUtc, timeZone);
  const offset = offsetMs(firstGuess, timeZone);
  return localAsUtc - offset;
}

/** 'HH:MM' as minutes after midnight. */
export function minutesOfDay(time: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) throw new Error(`bad time "${time}"`);
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  if (minutes > 24 * 60 || Number(match[2]) > 59) throw new Error(`bad time "${time}"`);
  return minutes;
}

export function formatDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** UTC midnight of a 'YYYY-MM-DD' date (used only for calendar arithmetic on dates). */
export function dateToUtcMs(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new Error(`bad date "${date}"`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

function utcMsToDate(ms: number): string {
  const d = new Date(ms);
  return formatDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

export function addDays(date: string, days: number): string {
  return utcMsToDate(dateToUtcMs(date) + days * DAY_MS);
}

/** ISO weekday of a date: 1 = Monday … 7 = Sunday. */
export function weekdayOf(date: string): number {
  const day = new Date(dateToUtcMs(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateToUtcMs(to) - dateToUtcMs(from)) / DAY_MS);
}
