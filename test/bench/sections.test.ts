/** BENCH_SECTIONS: which sections of `npm run bench` run, in which order. */
import { describe, expect, it } from 'vitest';
import { SECTIONS, needsBenchData, selectSections } from '../../bench/sections.js';

const names = (raw: string | undefined) => selectSections(raw).map((s) => s.name);

describe('bench sections', () => {
  it('runs every section, in the listed order, when none is named', () => {
    expect(names(undefined)).toEqual(SECTIONS.map((s) => s.name));
    expect(names(' , ')).toEqual(SECTIONS.map((s) => s.name));
  });

  it('runs the named ones in the listed order, with the sections they need', () => {
    // random-points divides by the bare route's rate, which the http section measures.
    expect(names('reanalysis, random-points')).toEqual(['http', 'random-points', 'reanalysis']);
    expect(names('free-field')).toEqual(['free-field']);
  });

  it('refuses an unknown name, listing the known ones', () => {
    expect(() => selectSections('http,warp')).toThrow(/'warp' is not one of point-lookup, free-field, http, random-points, cold-phase, reanalysis/);
  });

  it('builds the nwp store only for sections that read it: the reanalysis year alone builds its own', () => {
    expect(needsBenchData(selectSections('reanalysis'))).toBe(false);
    expect(needsBenchData(selectSections('reanalysis,free-field'))).toBe(true);
    expect(needsBenchData(selectSections(undefined))).toBe(true);
  });
});
