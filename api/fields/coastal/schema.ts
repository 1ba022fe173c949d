/**
 * Response schema of weather.php's `coastal` group (Business): sea surface
 * temperature, waves and the state of the sea at the nearest sea
 * (docs/coastal.md). A field the answering source does not carry is null.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SEA_STATE_TABLE } from '../../../science/index.js';

const NullableNumber = (description: string) => Type.Unsafe<number | null>({ type: ['number', 'null'], description });

export const SeaStateSchema = Type.Object({
  code: Type.Integer({ minimum: 0, maximum: 9, description: 'WMO code table 3700 (Douglas sea scale) from the significant wave height' }),
  label: Type.Unsafe<string>({ type: 'string', enum: SEA_STATE_TABLE.map((r) => r.it), description: 'Italian name of the state of the sea' }),
});

export const CoastalSchema = Type.Object({
  sea_surface_temperature: NullableNumber('sea surface temperature, °C, one decimal'),
  wave_height: NullableNumber('significant wave height, m, two decimals'),
  wave_direction: NullableNumber('mean wave direction the waves come from, degrees clockwise from north (0 = from north), integer'),
  wave_period: NullableNumber('mean wave period (Tm-1,0), s, one decimal'),
  wave_peak_period: NullableNumber('peak wave period, s, one decimal'),
  sea_state: Type.Unsafe<Static<typeof SeaStateSchema> | null>({ ...SeaStateSchema, type: ['object', 'null'], description: 'null without a wave height' }),
  distance_km: Type.Number({ description: 'distance from the point to the nearest sea grid cell the values come from, km, one decimal (0: the point is in a sea cell)' }),
  source: Type.String({ description: 'product and model the values come from; "(sample data)" for the demo dataset' }),
});

export const coastalResponseProperties = {
  coastal: Type.Optional(Type.Unsafe<Static<typeof CoastalSchema> | null>({ ...CoastalSchema, type: ['object', 'null'], description: 'null when no sea cell lies within the search radius or no marine product covers the point and time' })),
};

export type CoastalBody = Static<typeof CoastalSchema>;
