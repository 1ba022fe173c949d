/**
 * Response schemas of weather.php's Developer fields (TypeBox → JSON Schema,
 * the single source of their types). `developerResponseProperties` is meant
 * to be spread into the route's 200 schema beside the Free fields: every
 * property is optional there (a Free key's response has none of them); when
 * present, a field is an object or null (null: its inputs are missing or the
 * index is undefined there, docs/api.md "Response (Developer fields)").
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FROST_RISK_LEVELS, UTCI_CATEGORIES, UV_CATEGORIES, WBGT_RISK_LEVELS } from '../../../science/index.js';

/** An object schema that may also be null (fast-json-stringify takes a type list without anyOf). */
function nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'] });
}

function oneOf<const V extends readonly string[]>(values: V, description: string) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], description });
}

function oneOfOrNull<const V extends readonly string[]>(values: V, description: string) {
  return Type.Unsafe<V[number] | null>({ type: ['string', 'null'], enum: [...values, null], description });
}

const NullableNumber = (description: string) => Type.Unsafe<number | null>({ type: ['number', 'null'], description });

export const UTCI_CATEGORY_IDS = UTCI_CATEGORIES.map((c) => c.id);
export const UV_CATEGORY_IDS = UV_CATEGORIES.map((c) => c.id);
export const WBGT_RISK_IDS = WBGT_RISK_LEVELS.map((l) => l.id);
export const FROST_RISK_IDS = FROST_RISK_LEVELS.map((l) => l.id);

export const ComfortSchema = Type.Object({
  value: Type.Number({ description: 'UTCI, °C (Bröde et al. 2012), at the altitude-corrected temperature' }),
  category: oneOf(UTCI_CATEGORY_IDS, 'UTCI assessment category (Błażejczyk et al. 2013)'),
  category_it: Type.String({ description: 'Italian label of the category' }),
  mean_radiant_temperature: Type.Number({ description: 'mean radiant temperature used, °C' }),
}, { description: 'thermal comfort: UTCI, °C, with its stress category (Bröde et al. 2012)' });

export const UvIndexSchema = Type.Object({
  value: Type.Number({ description: 'UV index (dimensionless), one decimal' }),
  category: oneOf(UV_CATEGORY_IDS, 'WHO UV category of the rounded value'),
  category_it: Type.String({ description: 'Italian label of the category' }),
  clear_sky: Type.Number({ description: 'clear-sky UV index (Madronich 2007) at the same instant' }),
  cloud_modification: Type.Number({ description: 'cloud modification factor applied, 0..1' }),
  source: Type.String({ description: 'method and inputs of the value: the satellite where it covers the point and time (CM SAF SARAH cloud albedo, else EUMETSAT LSA SAF clear-sky index), else the NWP (docs/api.md)' }),
}, { description: 'UV index (WHO scale), clear-sky Madronich corrected for cloud' });

export const WbgtSchema = Type.Object({
  sun: Type.Number({ description: 'WBGT in the sun, °C (Liljegren et al. 2008)' }),
  shade: Type.Number({ description: 'WBGT in the shade (no solar load), °C' }),
  risk_level: oneOf(WBGT_RISK_IDS, 'heat-stress risk of the sun value: ISO 7243 / NIOSH RAL at 300 W, Worklimate classes'),
  risk_level_it: Type.String({ description: 'Italian label of the risk level' }),
}, { description: 'wet-bulb globe temperature in sun and shade, °C (Liljegren et al. 2008)' });

export const FrostSchema = Type.Object({
  risk: oneOf(FROST_RISK_IDS, 'frost risk (docs/science.md "Frost method")'),
  risk_it: Type.String({ description: 'Italian label of the risk' }),
  frost_point: NullableNumber('frost point (ice), °C; null without humidity'),
  ground_temperature: Type.Number({ description: 'estimated ground (grass) temperature, °C' }),
  clear_calm: Type.Boolean({ description: 'cloud ≤ 25 % and 10 m wind < 2 m/s: the radiative-cooling condition of the method (3 K ground cooling)' }),
  air_frost: Type.Boolean({ description: '2 m temperature ≤ 0 °C' }),
  ground_frost: Type.Boolean({ description: 'ground temperature ≤ 0 °C' }),
  deposit: oneOfOrNull(['hoar_frost', 'black_frost'] as const, 'with ground frost: hoar frost (ground ≤ frost point) or black frost; else null'),
}, { description: 'frost risk: air and ground frost, deposit type' });

export const Et0Schema = Type.Object({
  value: Type.Number({ description: 'FAO-56 reference evapotranspiration, mm per hour, over the step ending at valid_time' }),
  period_hours: Type.Number({ description: 'length of that step, hours' }),
}, { description: 'reference evapotranspiration FAO-56 Penman-Monteith, mm' });

export const DeveloperFieldsSchema = Type.Object({
  comfort: nullable(ComfortSchema),
  uv_index: nullable(UvIndexSchema),
  wbgt: Type.Optional(nullable(WbgtSchema)),
  frost: Type.Optional(nullable(FrostSchema)),
  et0: Type.Optional(nullable(Et0Schema)),
});
export type DeveloperFields = Static<typeof DeveloperFieldsSchema>;
export type ComfortBody = Static<typeof ComfortSchema>;
export type UvIndexBody = Static<typeof UvIndexSchema>;
export type WbgtBody = Static<typeof WbgtSchema>;
export type FrostBody = Static<typeof FrostSchema>;
export type Et0Body = Static<typeof Et0Schema>;

/** The Developer properties for the route's response schema (all optional there). */
export const developerResponseProperties = {
  comfort: Type.Optional(nullable(ComfortSchema)),
  uv_index: Type.Optional(nullable(UvIndexSchema)),
  wbgt: Type.Optional(nullable(WbgtSchema)),
  frost: Type.Optional(nullable(FrostSchema)),
  et0: Type.Optional(nullable(Et0Schema)),
};
