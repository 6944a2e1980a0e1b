// Date and time display (SPEC §9). Owns: turning API timestamps into text in the market's time zone.
// Must hold: 10-digit timestamps are seconds, 13-digit ones milliseconds; 0 or empty shows "--".
// Must not read the clock itself: "now" is always passed in, so every result can be tested.

export const defaultTimeZone = 'Asia/Kolkata';

/** Converts an API timestamp (seconds, milliseconds, ISO string or Date) to epoch milliseconds. */
export function toEpochMs(value: number | string | Date | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number' || /^\d+$/.test(value)) {
    const numeric = Number(value);
    if (!Number.isFinite(numeric) || numeric <= 0) return null;
    const digits = String(Math.trunc(numeric)).length;
    return digits <= 10 ? numeric * 1000 : numeric;
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

interface ZonedParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  dayPeriod: string;
  weekday: number;
}

const partsFormatterCache = new Map<string, Intl.DateTimeFormat>();

// Creating an Intl formatter costs far more than using one (milliseconds on a slow phone): keep them.
const formatterCache = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, create: () => T): T {
  let formatter = formatterCache.get(key) as T | undefined;
  if (!formatter) {
    formatter = create();
    formatterCache.set(key, formatter);
  }
  return formatter;
}

function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  let formatter = partsFormatterCache.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
      weekday: 'short',
    });
    partsFormatterCache.set(timeZone, formatter);
  }
  const found: Record<string, string> = {};
  for (const part of formatter.formatToParts(epochMs)) found[part.type] = part.value;
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return {
    year: found.year ?? '',
    month: found.month ?? '',
    day: found.day ?? '',
    hour: found.hour ?? '',
    minute: found.minute ?? '',
    dayPeriod: (found.dayPeriod ?? '').toUpperCase(),
    weekday: weekdays.indexOf(found.weekday ?? ''),
  };
}

/** "05-03-2026 02:30 PM" in the market time zone; "--" for 0 or empty. */
export function formatDateTime(
  value: number | string | Date | null | undefined,
  timeZone: string = defaultTimeZone,
): string {
  const epochMs = toEpochMs(value);
  if (epochMs === null) return '--';
  const p = zonedParts(epochMs, timeZone);
  return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute} ${p.dayPeriod}`;
}

/** "05-03-2026" in the market time zone; "--" for 0 or empty. */
export function formatDate(
  value: number | string | Date | null | undefined,
  timeZone: string = defaultTimeZone,
): string {
  const epochMs = toEpochMs(value);
  if (epochMs === null) return '--';
  const p = zonedParts(epochMs, timeZone);
  return `${p.day}-${p.month}-${p.year}`;
}

/** Whole days between two calendar dates (y-m-d strings) without time-zone arithmetic. */
function calendarDayNumber(p: ZonedParts): number {
  return Math.floor(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)) / 86_400_000);
}

/**
 * Chat-style time (SPEC §9): today → "02:30 PM"; yesterday → "Yesterday" / "Ontem"; within 6 days →
 * the weekday; within a year → month and day; older → the full date. `nowMs` is passed in.
 */
export function formatChatTime(
  value: number | string | Date | null | undefined,
  nowMs: number,
  locale: string,
  timeZone: string = defaultTimeZone,
): string {
  const epochMs = toEpochMs(value);
  if (epochMs === null) return '--';
  const then = zonedParts(epochMs, timeZone);
  const now = zonedParts(nowMs, timeZone);
  const daysAgo = calendarDayNumber(now) - calendarDayNumber(then);
  if (daysAgo <= 0) return `${then.hour}:${then.minute} ${then.dayPeriod}`;
  if (daysAgo === 1) {
    const text = cached(`rel|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })).format(
      -1,
      'day',
    );
    return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
  }
  if (daysAgo <= 6) {
    const weekday = cached(
      `weekday|${locale}|${timeZone}`,
      () => new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long' }),
    );
    const text = weekday.format(epochMs);
    return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
  }
  if (daysAgo < 365) {
    return cached(
      `monthDay|${locale}|${timeZone}`,
      () => new Intl.DateTimeFormat(locale, { timeZone, month: 'short', day: 'numeric' }),
    ).format(epochMs);
  }
  return `${then.day}-${then.month}-${then.year}`;
}
