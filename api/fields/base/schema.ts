/**
 * Response schema of weather.php's Free fields, in response order (TypeBox →
 * JSON Schema, the single source of their types).
 */
import { Type, type Static } from '@sinclair/typebox';

/** A number that may be null (fast-json-stringify handles a type list without anyOf). */
const NullableNumber = (description: string) => Type.Unsafe<number | null>({ type: ['number', 'null'], description });
const NullableString = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], description });

export const TrendSchema = Type.Object({
  delta: Type.Number({ description: '°C change over the last 3 hours' }),
  label: Type.String({ description: 'Italian label with sign and °C change' }),
});
export type TrendBody = Static<typeof TrendSchema>;

/** The Free fields, in response order. */
export const FreeFieldsSchema = Type.Object({
  icon: NullableString('icon identifier (docs/api.md); null when no condition can be derived'),
  condition: NullableString('condition identifier (docs/api.md)'),
  temperature: NullableNumber('°C, altitude-corrected'),
  temperature_source: Type.String({ description: 'origin and method of temperature' }),
  dew_point: NullableNumber('°C'),
  humidity: NullableNumber('relative humidity, %'),
  pressure_msl: NullableNumber('hPa'),
  wind_speed: NullableNumber('km/h at 10 m'),
  wind_direction: NullableNumber('degrees the wind blows from, 0 = north; null when calm'),
  wind_gust: NullableNumber('km/h at 10 m'),
  temperature_trend_3h: Type.Unsafe<TrendBody | null>({ ...TrendSchema, type: ['object', 'null'], description: 'change of temperature over the last 3 hours with its Italian label; null when no data 3 hours back was published' }),
  valid_time: Type.String({ description: 'ISO 8601 UTC instant the values are valid for' }),
});
export type FreeFields = Static<typeof FreeFieldsSchema>;
