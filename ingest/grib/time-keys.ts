/**
 * GRIB time keys (as ecCodes reports them for editions 1 and 2) → reference
 * time, valid time, step type and accumulation start. Pure.
 *
 * ecCodes normalises both editions to dataDate (YYYYMMDD), dataTime (HHMM),
 * startStep/endStep in `stepUnits` (code table 4.4 / ecCodes stepUnits.table)
 * and stepType; a statistically processed field (accumulation, mean, max,
 * min) covers ref + startStep .. ref + endStep, and is valid at its end.
 */
import type { StepType } from '../field.js';
import type { GribMeta } from './eccodes-bridge.js';

export interface GribTimes {
  referenceTime: Date;
  validTime: Date;
  stepType: StepType;
  intervalStart?: Date;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Fixed-length step units of ecCodes' stepUnits.table; months and years have no fixed length. */
const STEP_UNIT_MS: Record<number, number> = {
  0: MINUTE_MS,
  1: HOUR_MS,
  2: 24 * HOUR_MS,
  10: 3 * HOUR_MS,
  11: 6 * HOUR_MS,
  12: 12 * HOUR_MS,
  13: 1000,
  14: 15 * MINUTE_MS,
  15: 30 * MINUTE_MS,
};

const STEP_TYPES: Record<string, StepType> = {
  instant: 'instant',
  accum: 'accum',
  avg: 'avg',
  max: 'max',
  min: 'min',
};

/** dataDate 20191114 + dataTime 0 (HHMM) + second → UTC instant. */
export function gribReferenceTime(dataDate: number, dataTime: number, second = 0): Date {
  const y = Math.floor(dataDate / 10000);
  const mo = Math.floor(dataDate / 100) % 100;
  const d = dataDate % 100;
  const h = Math.floor(dataTime / 100);
  const mi = dataTime % 100;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || second > 59) {
    throw new Error(`invalid reference time dataDate=${dataDate} dataTime=${dataTime}`);
  }
  return new Date(Date.UTC(y, mo - 1, d, h, mi, second));
}

export function gribTimes(meta: GribMeta): GribTimes {
  if (meta.dataDate === null || meta.dataTime === null) throw new Error('GRIB keys dataDate/dataTime are missing');
  const referenceTime = gribReferenceTime(meta.dataDate, meta.dataTime, meta.second ?? 0);
  const rawType = meta.stepType ?? 'instant';
  const stepType = STEP_TYPES[rawType];
  if (!stepType) throw new Error(`unsupported step type '${rawType}' (instant, accum, avg, max, min are read)`);
  const unitMs = STEP_UNIT_MS[meta.stepUnits ?? 1];
  if (unitMs === undefined) throw new Error(`unsupported step unit code ${meta.stepUnits} (no fixed length)`);
  const endStep = meta.endStep ?? 0;
  const startStep = meta.startStep ?? endStep;
  if (startStep > endStep) throw new Error(`startStep ${startStep} after endStep ${endStep}`);
  const validTime = new Date(referenceTime.getTime() + endStep * unitMs);
  if (stepType === 'instant') return { referenceTime, validTime, stepType };
  return { referenceTime, validTime, stepType, intervalStart: new Date(referenceTime.getTime() + startStep * unitMs) };
}
