/**
 * Product `dem`: one static elevation grid, used by the altitude correction
 * where a request gives no `alt`. A DEM file or a model orography file
 * (ICON-2I `HSURF`, COSMO `hsurf`, ERA5 surface geopotential `z`) will do.
 */
import type { StoredVariableSpec } from '../spec.js';

export const DEM_VARIABLES = {
  elevation: {
    units: 'm', aggregation: 'static', precision: 0.1, interpolation: 'linear', mask: 'any', block: 'elevation',
    longName: 'surface altitude above mean sea level', standardName: 'surface_altitude',
    names: ['orog', 'hsurf', 'z', 'fis', 'hgt', 'oro', 'dem', 'height', 'altitude', 'elev', 'topo', 'topography', 'h', 'band1'],
    paramIds: [228002, 129, 500007, 3008],
    standardNames: ['surface_altitude', 'surface_geopotential', 'height_above_mean_sea_level'],
    // Below the Dead Sea or above Everest is a no-data marker (ARPAE's 9999, GDAL's -32768).
    validRange: [-500, 9000],
  },
} as const satisfies Record<string, StoredVariableSpec>;
