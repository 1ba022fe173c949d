/**
 * The sections of `npm run bench`, in the order they run: one line each,
 * the module loaded only when its section runs (BENCH_SECTIONS selects
 * some). A new section is a module exporting a function of the context
 * (./section.ts) and one line here.
 */
import type { BenchSection } from './section.js';

export const SECTIONS: readonly BenchSection[] = [
  {
    name: 'point-lookup',
    run: async (ctx) => void (ctx.pointReadUs = (await (await import('./point-lookup.js')).runPointLookupBench({ dataDir: ctx.root })).medianUs),
  },
  { name: 'free-field', run: async (ctx) => (await import('./free-field.js')).runFreeFieldSection(ctx) },
  { name: 'http', run: async (ctx) => (await import('./http-report.js')).runHttpSection(ctx) },
  { name: 'random-points', needs: ['http'], run: async (ctx) => (await import('./random-points.js')).runRandomPointsSection(ctx) },
  { name: 'cold-phase', run: async (ctx) => (await import('./cold-phase-report.js')).runColdPhaseSection(ctx) },
  { name: 'reanalysis', ownData: true, run: async (ctx) => (await import('./reanalysis.js')).runReanalysisSection(ctx) },
];

/**
 * The sections BENCH_SECTIONS names (comma-separated; empty: all), with the
 * sections they need, in the order of {@link SECTIONS}.
 */
export function selectSections(raw: string | undefined, all: readonly BenchSection[] = SECTIONS): BenchSection[] {
  const names = (raw ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (names.length === 0) return [...all];
  const byName = new Map(all.map((s) => [s.name, s]));
  const wanted = new Set<string>();
  const add = (name: string) => {
    const s = byName.get(name);
    if (!s) throw new Error(`BENCH_SECTIONS=${raw}: '${name}' is not one of ${all.map((x) => x.name).join(', ')}`);
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const n of s.needs ?? []) add(n);
  };
  for (const n of names) add(n);
  return all.filter((s) => wanted.has(s.name));
}

/** Whether the run must build the nwp store and keys (./data.ts): some section reads them (not `ownData`). */
export function needsBenchData(sections: readonly BenchSection[]): boolean {
  return sections.some((s) => !s.ownData);
}
