/**
 * Scanning-mode normalisation on tiny grids, every flag combination, with the
 * storage order written out by hand from WMO Code table 3.4.
 *
 * Target (normalised, row-major [y][x], y northward) for a 3×2 grid:
 *   north row (j=1):  4 5 6
 *   south row (j=0):  1 2 3         → [1, 2, 3, 4, 5, 6]
 */
import { describe, expect, it } from 'vitest';
import { normaliseScanning, scanningFlagsFromOctet } from '../../../ingest/grib/scanning.js';

const TARGET_3x2 = [1, 2, 3, 4, 5, 6];

/** octet → storage order of the 3×2 grid above, derived by hand. */
const CASES_3x2: [number, string, number[]][] = [
  [0x00, 'rows N→S, W→E (ECMWF default)', [4, 5, 6, 1, 2, 3]],
  [0x80, 'rows N→S, E→W', [6, 5, 4, 3, 2, 1]],
  [0x40, 'rows S→N, W→E', [1, 2, 3, 4, 5, 6]],
  [0xc0, 'rows S→N, E→W', [3, 2, 1, 6, 5, 4]],
  [0x10, 'alternate rows, first N W→E', [4, 5, 6, 3, 2, 1]],
  [0x90, 'alternate rows, first N E→W', [6, 5, 4, 1, 2, 3]],
  [0x50, 'alternate rows, first S W→E', [1, 2, 3, 6, 5, 4]],
  [0xd0, 'alternate rows, first S E→W', [3, 2, 1, 4, 5, 6]],
  [0x20, 'columns W→E, N→S', [4, 1, 5, 2, 6, 3]],
  [0xa0, 'columns E→W, N→S', [6, 3, 5, 2, 4, 1]],
  [0x60, 'columns W→E, S→N', [1, 4, 2, 5, 3, 6]],
  [0xe0, 'columns E→W, S→N', [3, 6, 2, 5, 1, 4]],
  [0x30, 'alternate columns, first W N→S', [4, 1, 2, 5, 6, 3]],
  [0xb0, 'alternate columns, first E N→S', [6, 3, 2, 5, 4, 1]],
  [0x70, 'alternate columns, first W S→N', [1, 4, 5, 2, 3, 6]],
  [0xf0, 'alternate columns, first E S→N', [3, 6, 5, 2, 1, 4]],
];

describe('normaliseScanning', () => {
  it.each(CASES_3x2)('scanning octet %i: %s', (octet, _label, stored) => {
    const out = normaliseScanning(stored, 3, 2, scanningFlagsFromOctet(octet));
    expect(Array.from(out)).toEqual(TARGET_3x2);
  });

  it('covers all 16 combinations of the four flags', () => {
    expect(new Set(CASES_3x2.map((c) => c[0])).size).toBe(16);
  });

  it('alternative row scanning: the third row runs like the first (2×3 grid)', () => {
    // Target rows S→N: [1 2] [3 4] [5 6]; storage N→S: row 0 W→E, row 1 E→W, row 2 W→E.
    const out = normaliseScanning([5, 6, 4, 3, 1, 2], 2, 3, scanningFlagsFromOctet(0x10));
    expect(Array.from(out)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('alternative column scanning with three columns: the third column runs like the first', () => {
    // 3×2 target as above, j consecutive S→N, alternate: col a S→N, col b N→S, col c S→N.
    const out = normaliseScanning([1, 4, 5, 2, 3, 6], 3, 2, scanningFlagsFromOctet(0x70));
    expect(Array.from(out)).toEqual(TARGET_3x2);
  });

  it('keeps NaN (missing points) where they are', () => {
    const out = normaliseScanning([4, NaN, 6, 1, 2, 3], 3, 2, scanningFlagsFromOctet(0x00));
    expect(Number.isNaN(out[4])).toBe(true);
    expect(out[0]).toBe(1);
  });

  it('rejects a value count that does not fit the grid', () => {
    expect(() => normaliseScanning([1, 2, 3], 2, 2, scanningFlagsFromOctet(0))).toThrow(/3 values for a 2×2 grid/);
  });
});

describe('scanningFlagsFromOctet', () => {
  it('reads bits 1-4 of Code table 3.4', () => {
    expect(scanningFlagsFromOctet(0x50)).toEqual({
      iScansNegatively: false,
      jScansPositively: true,
      jPointsAreConsecutive: false,
      alternativeRowScanning: true,
    });
    expect(scanningFlagsFromOctet(0xa0)).toEqual({
      iScansNegatively: true,
      jScansPositively: false,
      jPointsAreConsecutive: true,
      alternativeRowScanning: false,
    });
  });
});
