/**
 * Pollen concentration classes of the Associazione Italiana di Aerobiologia
 * (AIA / POLLnet network, UNI 11108:2004 sampling), as published by ARPA
 * Umbria and ARPA FVG, for the six CAMS pollen species. The table: SNPA
 * POLLnet, "Classi di concentrazione dei pollini" (pollnet.isprambiente.it,
 * the concentration classes of the weekly bulletins: Betulaceae 0.6–15.9 /
 * 16–49.9 / ≥ 50; Graminaceae 0.6–9.9 / 10–29.9 / ≥ 30; Oleaceae 0.6–4.9 /
 * 5–24.9 / ≥ 25; Compositae 0.1–4.9 / 5–24.9 / ≥ 25 grains/m³).
 *
 * The classes are defined on DAILY mean concentrations (grains/m³); applied to
 * hourly CAMS values they are an approximation. Published class edges are
 * given to 0.1 grains/m³ ("bassa 0.6–9.9, media 10.0–29.9, alta ≥ 30"); for
 * continuous values a class starts at its lower edge (10.0 is 'medium').
 */

/** CAMS pollen species (Open-Meteo variable names without the _pollen suffix). */
export type PollenSpecies = 'alder' | 'birch' | 'grass' | 'mugwort' | 'olive' | 'ragweed';

/** Pollen risk identifiers with the AIA Italian class names. */
export const POLLEN_LEVELS = [
  { id: 'absent', it: 'assente' },
  { id: 'low', it: 'bassa' },
  { id: 'medium', it: 'media' },
  { id: 'high', it: 'alta' },
] as const;

/** A pollen level identifier. */
export type PollenLevel = (typeof POLLEN_LEVELS)[number]['id'];

/** AIA family of each species and its lower class edges [low, medium, high], grains/m³. */
export const POLLEN_CLASSES: Record<PollenSpecies, { family: string; edges: readonly [number, number, number] }> = {
  alder: { family: 'Betulaceae', edges: [0.6, 16, 50] },
  birch: { family: 'Betulaceae', edges: [0.6, 16, 50] },
  grass: { family: 'Graminaceae', edges: [0.6, 10, 30] },
  olive: { family: 'Oleaceae', edges: [0.6, 5, 25] },
  mugwort: { family: 'Compositae', edges: [0.1, 5, 25] },
  ragweed: { family: 'Compositae', edges: [0.1, 5, 25] },
};

/** Result of {@link pollenRisk} (shared: read-only). */
export interface PollenRisk {
  /** Level identifier, null for a missing value. */
  readonly risk: PollenLevel | null;
  /** AIA Italian class name ('assente', 'bassa', 'media', 'alta'). */
  readonly label: string | null;
  /** AIA family the class table belongs to. */
  readonly family: string;
}

interface SpeciesResults {
  missing: PollenRisk;
  levels: readonly PollenRisk[];
}
/** Per species, its results for a missing value and each level: made once (six species in every answer with `cams`). */
const RESULTS = Object.fromEntries(
  Object.entries(POLLEN_CLASSES).map(([s, { family }]): [string, SpeciesResults] => [s, {
    missing: { risk: null, label: null, family },
    levels: POLLEN_LEVELS.map((l) => ({ risk: l.id, label: l.it, family })),
  }]),
) as Record<PollenSpecies, SpeciesResults>;

/**
 * AIA pollen class of a concentration.
 *
 * @param species 'alder' … 'ragweed' (a trailing '_pollen' is accepted)
 * @param grainsPerM3 concentration, grains/m³
 */
export function pollenRisk(species: PollenSpecies | `${PollenSpecies}_pollen`, grainsPerM3: number): PollenRisk {
  // endsWith and slice, not a regular expression: asked for six species in every answer with `cams`.
  const key = (species.endsWith('_pollen') ? species.slice(0, -'_pollen'.length) : species) as PollenSpecies;
  const table = POLLEN_CLASSES[key];
  if (!table) throw new RangeError(`pollenRisk: unknown species '${species}'`);
  const results = RESULTS[key];
  if (!(grainsPerM3 >= 0)) return results.missing;
  const [low, medium, high] = table.edges;
  return results.levels[grainsPerM3 >= high ? 3 : grainsPerM3 >= medium ? 2 : grainsPerM3 >= low ? 1 : 0]!;
}

/**
 * {@link pollenRisk} of one species, its class table and results looked up
 * once: a weather answer classifies all six species (the same results).
 *
 * @param species 'alder' … 'ragweed'
 * @returns grains/m³ → the class
 */
export function pollenClassifier(species: PollenSpecies): (grainsPerM3: number) => PollenRisk {
  const table = POLLEN_CLASSES[species];
  if (!table) throw new RangeError(`pollenClassifier: unknown species '${species}'`);
  const { missing, levels } = RESULTS[species];
  const [low, medium, high] = table.edges;
  return (grainsPerM3) => (!(grainsPerM3 >= 0) ? missing : levels[grainsPerM3 >= high ? 3 : grainsPerM3 >= medium ? 2 : grainsPerM3 >= low ? 1 : 0]!);
}

/**
 * Order of a level, lowest first (index into POLLEN_LEVELS; NaN for no level):
 * by comparison, not a lookup keyed by the level (four keys at one site, in
 * every answer with `cams`).
 */
function rank(level: PollenLevel): number {
  return level === 'absent' ? 0 : level === 'low' ? 1 : level === 'medium' ? 2 : level === 'high' ? 3 : NaN;
}

/**
 * Overall pollen risk: the highest level among the species that have one;
 * null when no species is known (a species the source does not carry is not
 * "absent", it is unknown, and does not lower or raise the result).
 */
export function overallPollenRisk(levels: Iterable<PollenLevel | null>): PollenLevel | null {
  let best: PollenLevel | null = null;
  for (const l of levels) if (l !== null && (best === null || rank(l) > rank(best))) best = l;
  return best;
}

/** AIA Italian class name of a level. */
export function pollenLevelLabelIt(level: PollenLevel): string {
  return POLLEN_LEVELS[rank(level)]!.it;
}
