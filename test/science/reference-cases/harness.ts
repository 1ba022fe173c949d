/**
 * The harness of the reference-case files beside it: each reads its quantity
 * from ../shared/reference/science_cases.json and checks every case within
 * the case's own tolerance. Each expected key is either checked (`mark`) or
 * listed as not checked with the reason (a design disagreement or a quantity
 * the library does not produce); a final test per quantity fails if an
 * expected key is neither, so nothing is skipped silently.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SCIENCE_CASES, describeShared, hasSharedData } from '../../support/shared-data.js';

export interface Case {
  id: string;
  inputs: Record<string, any>;
  expected: Record<string, any>;
  tolerance: Record<string, any> | null;
  intermediate?: Record<string, any>;
}
type Quantities = Record<string, { cases: Case[] }>;

const Q: Quantities = hasSharedData ? JSON.parse(readFileSync(SCIENCE_CASES, 'utf8')).quantities : {};

const checked = new Map<string, Set<string>>();

/** Records the expected keys of case `c` of quantity `q` that were compared. */
export function mark(q: string, c: Case, ...keys: string[]): void {
  const k = `${q}/${c.id}`;
  if (!checked.has(k)) checked.set(k, new Set());
  for (const key of keys) checked.get(k)!.add(key);
}

export function near(actual: number, expected: number, tol: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: got ${actual}, expected ${expected} ± ${tol}`).toBeLessThanOrEqual(tol);
}

/** 'Very strong heat stress' → 'very_strong_heat_stress'. */
export const snake = (s: string): string => s.toLowerCase().replace(/[\s-]+/g, '_');

/**
 * One `it` per case of quantity `name`, then one per key not checked (shown
 * skipped, with its reason) and the final accounting test.
 *
 * @param notChecked expected keys deliberately not compared, with the reason
 */
export function quantity(name: string, check: (c: Case) => void, notChecked: Record<string, string> = {}): void {
  describeShared(`reference cases: ${name}`, () => {
    const cases = Q[name]?.cases ?? [];
    it('has cases', () => expect(cases.length).toBeGreaterThan(0));
    for (const c of cases) {
      // A case whose every expected key is documented as not checked would pass by asserting nothing: shown skipped.
      const compared = Object.keys(c.expected).filter((k) => !(k in notChecked));
      if (compared.length === 0) it.skip(`${c.id} [nothing compared: see 'not checked' below]`, () => {});
      else it(c.id, () => check(c));
    }
    for (const [key, reason] of Object.entries(notChecked)) it.skip(`not checked: '${key}' (${reason})`, () => {});
    it('every expected key is checked or documented as not checked', () => {
      for (const c of cases) {
        const done = checked.get(`${name}/${c.id}`) ?? new Set();
        for (const key of Object.keys(c.expected)) {
          expect(done.has(key) || key in notChecked, `${name}/${c.id}: expected key '${key}' neither checked nor documented`).toBe(true);
        }
      }
    });
  });
}
