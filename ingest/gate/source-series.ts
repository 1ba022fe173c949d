/**
 * The valid times of each source series (one variable at one level of one
 * run in one file) in the order the file gives them, taken before mapping
 * sorts them into the product's time axis, for the monotone-steps check.
 */
import type { SourceField } from '../field.js';

export interface SourceSeries {
  file: string;
  /** Source variable name (CanonicalField.source). */
  name: string;
  /** Level and run, for messages ('heightAboveGround:2, run 2026-11-21T00:00:00.000Z'). */
  label: string;
  /** Valid times, Unix ms, in file order. */
  times: number[];
}

/** The series of one read of `file` (a file given twice is two reads, each in order). */
export function sourceSeries(file: string, fields: readonly SourceField[]): SourceSeries[] {
  const byKey = new Map<string, SourceSeries>();
  for (const field of fields) {
    if (field.timeless) continue;
    const level = field.level ? `${field.level.type}:${field.level.value}` : '';
    // A forecast's steps belong to its run; fields whose run is their valid time (analyses, files without one) form one series.
    const run = field.referenceTime.getTime() === field.validTime.getTime() ? 'analyses' : `run ${field.referenceTime.toISOString()}`;
    const label = `${level ? `${level}, ` : ''}${run}`;
    const key = `${field.name}|${field.paramId ?? ''}|${field.stepType}|${label}`;
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = { file, name: field.name, label, times: [] }));
    s.times.push(field.validTime.getTime());
  }
  return [...byKey.values()];
}
