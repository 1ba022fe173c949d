/**
 * A sample's time text (tiles/read/sample-time.ts) is what Date's toISOString writes, whatever the order of the
 * times asked: the same second again, the two alternating seconds of a request (now and three hours back), a
 * third second, times before 1970, fractional milliseconds, years past 9999.
 */
import { describe, expect, it } from 'vitest';
import { SampleTimes } from '../../../tiles/read/sample-time.js';
import { mulberry32 } from '../../../bench/prng.js';

const T = Date.UTC(2026, 10, 27, 11, 48, 8, 267);
const H3 = 3 * 3_600_000;

describe('SampleTimes.iso', () => {
  it('writes what toISOString writes for a request stream of now and three hours back', () => {
    const st = new SampleTimes();
    const rnd = mulberry32(11);
    let now = T;
    for (let n = 0; n < 20_000; n++) {
      // The clock moves 0-3 ms between requests, now and then jumps seconds ahead.
      now += n % 997 === 0 ? 5_000 + Math.floor(rnd() * 100_000) : Math.floor(rnd() * 4);
      for (const ms of [now, now - H3, now - H3, now]) expect(st.iso(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('at any time, in any order', () => {
    const st = new SampleTimes();
    const rnd = mulberry32(5);
    const times = [0, -1, -999, -1000, -1001, 999, 1000, 1001, T, T + 1, T - H3, 253402300799999, 253402300800000, -62167219200000, -62167219200001, 8.64e15, -8.64e15, T + 0.5, T - 0.5, -0.5];
    for (let n = 0; n < 5_000; n++) times.push(Math.floor((rnd() - 0.5) * 2e14), T + Math.floor(rnd() * 3000));
    for (let r = 0; r < 3; r++) for (const ms of times) expect(st.iso(ms)).toBe(new Date(ms).toISOString());
  });
});
