/**
 * Real files live in ../shared/data and are read in place. When the folder is
 * absent, suites that need it skip with a visible reason, unless
 * REQUIRE_SHARED_DATA=1 (CI), where its absence is a failure.
 */
import { existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { describe } from 'vitest';

// MP_SHARED_DIR: set by stryker.config.mjs, whose copy of the checkout is not beside ../shared.
export const SHARED = process.env.MP_SHARED_DIR ?? resolve(import.meta.dirname, '../../../shared');
export const SHARED_DATA = join(SHARED, 'data');
export const SCIENCE_CASES = join(SHARED, 'reference', 'science_cases.json');

export const hasSharedData = existsSync(SHARED_DATA);

if (!hasSharedData && process.env.REQUIRE_SHARED_DATA === '1') {
  throw new Error(`REQUIRE_SHARED_DATA=1 but ${SHARED_DATA} does not exist: place ../shared beside the checkout`);
}

/** Absolute path of a file in ../shared/data, e.g. dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib'). */
export function dataFile(rel: string): string {
  return join(SHARED_DATA, rel);
}

/** `describe` that skips, with the reason in its title, when ../shared/data is absent. */
export const describeShared: typeof describe = (hasSharedData
  ? describe
  : ((name: string, fn: () => void) => describe.skip(`${name} [skipped: ${SHARED_DATA} not found]`, fn))) as typeof describe;
