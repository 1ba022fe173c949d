/**
 * CF calendars (CF Conventions 1.11 §4.4.1,
 * https://cfconventions.org/cf-conventions/cf-conventions.html#calendar):
 * a calendar maps a date label (y, m, d, h, min, s) to a day count and back.
 *
 * - proleptic_gregorian: Gregorian rules for every year.
 * - standard / gregorian: Julian before 1582-10-15, Gregorian from then on.
 * - julian: Julian rules for every year.
 * - noleap / 365_day, all_leap / 366_day, 360_day: model calendars. Their
 *   dates are mapped to real instants by label (2001-07-15 12:00 in a 360_day
 *   calendar becomes 2001-07-15T12:00Z), which is how cftime-based tools
 *   align model output with observations; a label with no real-calendar date
 *   (360_day 02-30, all_leap 02-29 in a common year) is an error.
 *
 * Day counts use Julian Day Numbers (Meeus, Astronomical Algorithms, 2nd ed.,
 * ch. 7) for the real calendars and plain year·length arithmetic for the
 * model calendars.
 */

export type Calendar = 'proleptic_gregorian' | 'standard' | 'julian' | 'noleap' | 'all_leap' | '360_day';

export interface DateLabel {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
  /** Seconds since midnight (fractional allowed). */
  seconds: number;
}

const ALIASES: Record<string, Calendar> = {
  proleptic_gregorian: 'proleptic_gregorian',
  standard: 'standard',
  gregorian: 'standard',
  julian: 'julian',
  noleap: 'noleap',
  '365_day': 'noleap',
  all_leap: 'all_leap',
  '366_day': 'all_leap',
  '360_day': '360_day',
};

/** Canonical calendar for a CF `calendar` attribute (absent = standard); null when unsupported. */
export function parseCalendar(attr: string | undefined): Calendar | null {
  if (attr === undefined || attr.trim() === '') return 'standard';
  return ALIASES[attr.trim().toLowerCase()] ?? null;
}

const MS_PER_DAY = 86_400_000;
/** JDN of 1970-01-01 (Gregorian). */
const JDN_UNIX_EPOCH = 2_440_588;
const CUM_DAYS_NOLEAP = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
const CUM_DAYS_LEAP = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366];

/** Gregorian calendar date → Julian Day Number (Meeus ch. 7, integer form, valid for all years). */
function jdnGregorian(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
}

/** Julian calendar date → Julian Day Number. */
function jdnJulian(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
}

/** True when (y, m, d) comes before the Gregorian reform date 1582-10-15. */
function beforeReform(y: number, m: number, d: number): boolean {
  return y < 1582 || (y === 1582 && (m < 10 || (m === 10 && d < 15)));
}

/**
 * Milliseconds on the calendar's own continuous day count for a label. For the
 * real calendars this is the Unix time of that instant; for model calendars it
 * is a private count only meaningful inside the same calendar.
 */
export function labelToCount(c: Calendar, l: DateLabel): number {
  const secMs = l.seconds * 1000;
  switch (c) {
    case 'proleptic_gregorian':
      return (jdnGregorian(l.year, l.month, l.day) - JDN_UNIX_EPOCH) * MS_PER_DAY + secMs;
    case 'julian':
      return (jdnJulian(l.year, l.month, l.day) - JDN_UNIX_EPOCH) * MS_PER_DAY + secMs;
    case 'standard': {
      const jdn = beforeReform(l.year, l.month, l.day) ? jdnJulian(l.year, l.month, l.day) : jdnGregorian(l.year, l.month, l.day);
      return (jdn - JDN_UNIX_EPOCH) * MS_PER_DAY + secMs;
    }
    case 'noleap':
      return (l.year * 365 + CUM_DAYS_NOLEAP[l.month - 1]! + l.day - 1) * MS_PER_DAY + secMs;
    case 'all_leap':
      return (l.year * 366 + CUM_DAYS_LEAP[l.month - 1]! + l.day - 1) * MS_PER_DAY + secMs;
    case '360_day':
      return (l.year * 360 + (l.month - 1) * 30 + l.day - 1) * MS_PER_DAY + secMs;
  }
}

/** Inverse of labelToCount for the model calendars. */
function countToModelLabel(c: 'noleap' | 'all_leap' | '360_day', countMs: number): DateLabel {
  const days = Math.floor(countMs / MS_PER_DAY);
  const seconds = (countMs - days * MS_PER_DAY) / 1000;
  const yearLen = c === 'noleap' ? 365 : c === 'all_leap' ? 366 : 360;
  const year = Math.floor(days / yearLen);
  const doy = days - year * yearLen;
  if (c === '360_day') return { year, month: Math.floor(doy / 30) + 1, day: (doy % 30) + 1, seconds };
  const cum = c === 'noleap' ? CUM_DAYS_NOLEAP : CUM_DAYS_LEAP;
  let month = 1;
  while (doy >= cum[month]!) month++;
  return { year, month, day: doy - cum[month - 1]! + 1, seconds };
}

/**
 * Instant (Unix ms) of a reference label plus an offset in ms, in calendar `c`.
 * Throws RangeError for a model-calendar date that has no real date.
 */
export function addToLabel(c: Calendar, ref: DateLabel, offsetMs: number): number {
  const count = labelToCount(c, ref) + offsetMs;
  if (c === 'proleptic_gregorian' || c === 'standard' || c === 'julian') return count;
  const l = countToModelLabel(c, count);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  const back = new Date(0);
  back.setUTCFullYear(l.year, l.month - 1, l.day);
  if (back.getUTCFullYear() !== l.year || back.getUTCMonth() !== l.month - 1 || back.getUTCDate() !== l.day) {
    const label = `${String(l.year).padStart(4, '0')}-${String(l.month).padStart(2, '0')}-${String(l.day).padStart(2, '0')}`;
    throw new RangeError(`${c} date ${label} has no real-calendar equivalent`);
  }
  return back.getTime() + l.seconds * 1000;
}
