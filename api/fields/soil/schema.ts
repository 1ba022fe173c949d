/**
 * Response schema of weather.php's `soil` group (Business): volumetric soil
 * moisture and soil temperature per layer at the nearest land (docs/soil.md).
 * Layers are named by their depths; a layer the answering source does not
 * carry is null.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The layers the API names, cm [top, bottom]: ERA5's and ERA5-Land's (product
 * `soil`), then the NWP model's (ICON's, product `nwp-soil`), as the two
 * products' variables tables in ingest keep them. A source fills its own.
 */
export const SOIL_LAYERS_CM = [
  [0, 7], [7, 28], [28, 100], [100, 289],
  [0, 1], [1, 3], [3, 9], [9, 27], [27, 81], [81, 243],
] as const;

const NullableNumber = (description: string) => Type.Unsafe<number | null>({ type: ['number', 'null'], description });

const layerProperties: Record<string, TSchema> = {};
for (const [top, bottom] of SOIL_LAYERS_CM) {
  layerProperties[`moisture_${top}_${bottom}cm`] = NullableNumber(`volumetric soil water ${top}–${bottom} cm below the surface, m³/m³, three decimals`);
  layerProperties[`temperature_${top}_${bottom}cm`] = NullableNumber(`soil temperature ${top}–${bottom} cm below the surface, °C, one decimal`);
}

export const SoilSchema = Type.Object({
  ...layerProperties,
  distance_km: Type.Number({ description: 'distance from the point to the nearest land grid cell the values come from, km, one decimal (0: the point is in a land cell)' }),
  source: Type.String({ description: 'product and model the values come from; "(sample data)" for the demo dataset' }),
});

export type SoilBody = Record<string, number | null> & { distance_km: number; source: string };

export const soilResponseProperties = {
  soil: Type.Optional(Type.Unsafe<Static<typeof SoilSchema> | null>({ ...SoilSchema, type: ['object', 'null'], description: 'null when no land cell lies within the search radius or no soil product covers the point and time' })),
};
