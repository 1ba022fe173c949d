/**
 * Response schemas of weather.php's `cams` group: `air_quality` and `pollen`
 * (docs/air-quality.md). Concentrations in µg/m³ and grains/m³, one decimal;
 * a pollutant or species the answering product does not carry is null,
 * never 0.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { EAQI_LEVELS, POLLEN_LEVELS } from '../../../science/index.js';

function nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'] });
}
const NullableNumber = (description: string) => Type.Unsafe<number | null>({ type: ['number', 'null'], description });
function oneOf<const V extends readonly string[]>(values: V, description: string) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], description });
}
function oneOfOrNull<const V extends readonly string[]>(values: V, description: string) {
  return Type.Unsafe<V[number] | null>({ type: ['string', 'null'], enum: [...values, null], description });
}

export const EAQI_LEVEL_IDS = EAQI_LEVELS.map((l) => l.id);
export const POLLEN_LEVEL_IDS = POLLEN_LEVELS.map((l) => l.id);
export const EAQI_POLLUTANTS = ['pm2_5', 'pm10', 'nitrogen_dioxide', 'ozone', 'sulphur_dioxide'] as const;
export const POLLEN_SPECIES = ['alder', 'birch', 'grass', 'mugwort', 'olive', 'ragweed'] as const;

export const EaqiSchema = Type.Object({
  value: Type.Number({ description: 'European Air Quality Index (EEA bands of 2024), continuous: 0–20 good … above 100 extremely poor; one decimal' }),
  label: Type.String({ description: 'Italian name of the level (buona, discreta, moderata, scadente, molto scadente, estremamente scadente)' }),
  level: oneOf(EAQI_LEVEL_IDS, 'stable identifier of the level'),
});

export const AirQualitySchema = Type.Object({
  eaqi: nullable(EaqiSchema),
  dominant_pollutant: oneOfOrNull(EAQI_POLLUTANTS, 'pollutant with the highest sub-index'),
  pm2_5: NullableNumber('PM2.5, µg/m³'),
  pm10: NullableNumber('PM10, µg/m³'),
  nitrogen_dioxide: NullableNumber('NO₂, µg/m³'),
  ozone: NullableNumber('O₃, µg/m³'),
  sulphur_dioxide: NullableNumber('SO₂, µg/m³'),
  source: Type.String({ description: 'product and model the values come from; "(sample data)" for the demo dataset' }),
}, { description: 'European air quality index and 5 pollutants, µg/m³ (CAMS)' });

const SpeciesSchema = Type.Object({
  value: Type.Number({ description: 'pollen grains per m³' }),
  risk: oneOf(POLLEN_LEVEL_IDS, 'AIA/POLLnet concentration class'),
  risk_it: Type.String({ description: 'Italian class name (assente, bassa, media, alta)' }),
});

export const PollenSchema = Type.Object({
  risk: oneOfOrNull(POLLEN_LEVEL_IDS, 'highest class among the species the source carries; null when it carries none'),
  risk_it: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Italian class name of risk' }),
  species: Type.Object(Object.fromEntries(POLLEN_SPECIES.map((s) => [s, nullable(SpeciesSchema)])) as Record<(typeof POLLEN_SPECIES)[number], TSchema>, {
    description: 'per species; null when the source does not carry it',
  }),
  source: Type.String({ description: 'product and model the values come from' }),
}, { description: 'six pollen species, grains/m³, with a risk (CAMS)' });

export const camsResponseProperties = {
  air_quality: Type.Optional(nullable(AirQualitySchema)),
  pollen: Type.Optional(nullable(PollenSchema)),
};

export type AirQualityBody = Static<typeof AirQualitySchema>;
export type PollenBody = Static<typeof PollenSchema>;
