/**
 * The field groups of weather.php, in response order: each builder's fields
 * follow the previous one's, and `elapsed_ms` comes last. A new field group
 * is its folder (./contract.ts) and one entry in ALL; plan gating
 * (api/access/gating.ts), the response schema (./response-schema.ts) and the
 * weather service read the rest from the builders.
 */
import type { Plan } from '../access/contract.js';
import { baseBuilder } from './base/builder.js';
import { camsBuilder } from './cams/builder.js';
import { coastalBuilder } from './coastal/builder.js';
import type { FieldBuilder } from './contract.js';
import { developerBuilder } from './developer/builder.js';
import { soilBuilder } from './soil/builder.js';

const ALL = [baseBuilder, developerBuilder, camsBuilder, coastalBuilder, soilBuilder] as const;

export const BUILDERS: readonly FieldBuilder[] = ALL;

type NamesOf<B> = B extends FieldBuilder<infer G> ? G : never;
/** A `fields=` name. */
export type FieldGroup = NamesOf<(typeof ALL)[number]>;

/** The `fields=` names, in response order. */
export const FIELD_GROUPS = BUILDERS.flatMap((b) => Object.keys(b.groups)) as readonly FieldGroup[];

/** The lowest plan that receives each `fields=` name: its builder's. */
export const GROUP_MIN_PLAN = Object.fromEntries(
  BUILDERS.flatMap((b) => Object.keys(b.groups).map((g) => [g, b.minPlan])),
) as Readonly<Record<FieldGroup, Plan>>;

/** The response fields each `fields=` name selects. */
export const GROUP_FIELDS = Object.fromEntries(
  BUILDERS.flatMap((b) => Object.entries(b.groups)),
) as Readonly<Record<FieldGroup, readonly string[]>>;

/** The server's processing time, last in every answer whatever the plan. */
export const ELAPSED_FIELD = 'elapsed_ms';

/** Response fields no `fields=` name selects, with the lowest plan that receives them. */
export const BASE_FIELD_MIN_PLAN: Readonly<Record<string, Plan>> = Object.fromEntries([
  ...BUILDERS.flatMap((b) => {
    const grouped = new Set(Object.values<readonly string[]>(b.groups).flat());
    return Object.keys(b.properties).filter((p) => !grouped.has(p)).map((p) => [p, b.minPlan]);
  }),
  [ELAPSED_FIELD, 'free'],
]);
