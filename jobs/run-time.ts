/**
 * Model run times: parsing what operators type, the key a run's job id is
 * built from, and which run a schedule tick should fetch. All times are UTC.
 */

const ISO_RUN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2}))?(?::(\d{2}))?(?:\.\d+)?)?Z?$/;
const COMPACT_RUN = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?$/;

/**
 * Parse a run time: `2026-11-21T12`, `2026-11-21T12Z`, `2026-11-21T12:00Z`,
 * `2026-11-21T12:00:00Z`, `2026-11-21` (00 UTC) or compact `2026112112`.
 * A time zone other than UTC (Z) is refused: model runs are named in UTC.
 */
export function parseRunTime(text: string): Date {
  const s = text.trim();
  const m = ISO_RUN.exec(s) ?? COMPACT_RUN.exec(s);
  if (!m) {
    throw new Error(`invalid run time '${text}': expected UTC like 2026-11-21T12 or 2026112112`);
  }
  const [y, mo, d, h = '0', mi = '0', sec = '0'] = m.slice(1).map((v) => v ?? '0');
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const date = new Date(t);
  // Date.UTC rolls 2026-02-30 over into March: refuse instead of guessing.
  if (Number.isNaN(t) || date.getUTCDate() !== Number(d) || date.getUTCHours() !== Number(h) || Number(mi) > 59 || Number(sec) > 59) {
    throw new Error(`invalid run time '${text}': no such date/time`);
  }
  return date;
}

/** `2026-11-21T12Z` (or `2026-11-21T1230Z` when the run has minutes): the run part of a job id. No ':' (BullMQ's id separator). */
export function runKey(run: Date): string {
  const iso = run.toISOString();
  const hh = iso.slice(11, 13);
  const mm = iso.slice(14, 16);
  return `${iso.slice(0, 10)}T${hh}${mm === '00' ? '' : mm}Z`;
}

/**
 * The newest run expected to be published at `now`: runs start every
 * `cycleHours` from 00 UTC and appear `availableAfterMinutes` after their
 * nominal time (DWD ICON-EU: every 3 h, about 4 h later).
 */
export function latestRun(now: Date, cycleHours: number, availableAfterMinutes: number): Date {
  const cycleMs = cycleHours * 3_600_000;
  const ready = now.getTime() - availableAfterMinutes * 60_000;
  const dayStart = Date.UTC(new Date(ready).getUTCFullYear(), new Date(ready).getUTCMonth(), new Date(ready).getUTCDate());
  return new Date(dayStart + Math.floor((ready - dayStart) / cycleMs) * cycleMs);
}
