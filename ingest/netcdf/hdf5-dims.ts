/**
 * Dimension names for HDF5 datasets. NetCDF4 files written by netCDF-C attach
 * HDF5 dimension scales (DIMENSION_LIST); files written by plain HDF5 tools
 * (h5py, h5wasm) may not. Per axis, the first rule that answers wins:
 *
 * 1. the attached dimension scale (DIMENSION_LIST), by its dataset name;
 * 2. netCDF-C's `_Netcdf4Coordinates` dimension ids, matched to the scale
 *    datasets' `_Netcdf4Dimid`;
 * 3. a name from the variable's CF `coordinates` attribute naming a 1-D
 *    variable of that axis' length;
 * 4. a 1-D variable of that length recognised as a coordinate by its CF
 *    attributes (cf-coords.ts), taken by axis position as CF recommends
 *    (T, Z, Y, X order): the last axis prefers longitude-like, the one before
 *    latitude-like, the others time or vertical;
 * 5. otherwise a private name `dim<i>_<length>` (a dimension without a
 *    coordinate, such as a bounds vertex count).
 *
 * A 1-D dataset that is not attached to a scale is its own dimension.
 */
import type { AttrValue } from './model.js';
import { attrText } from './model.js';
import { coordRole, isXRole, isYRole, type CoordRole } from './cf-coords.js';

export interface H5DatasetInfo {
  name: string;
  shape: number[];
  attrs: ReadonlyMap<string, AttrValue>;
  isScale: boolean;
  /** netCDF-C dimension without coordinate variable. */
  phony: boolean;
  /** Attached scale dataset name per axis, when any. */
  scales: (string | undefined)[];
  ncDimIds: number[];
  ncDimId: number | undefined;
}

function rolePreference(axis: number, rank: number): (r: CoordRole | null) => boolean {
  if (axis === rank - 1) return isXRole;
  if (axis === rank - 2) return isYRole;
  return (r) => r === 'time' || r === 'reftime' || r === 'period' || r === 'vertical';
}

export function resolveDimensions(infos: readonly H5DatasetInfo[]): Map<string, string[]> {
  const byDimId = new Map<number, string>();
  for (const i of infos) if (i.ncDimId !== undefined && (i.isScale || i.phony)) byDimId.set(i.ncDimId, i.name);
  const oneD = infos.filter((i) => i.shape.length === 1 && !i.phony);
  const roles = new Map(oneD.map((i) => [i.name, coordRole(i)]));

  const out = new Map<string, string[]>();
  for (const info of infos) {
    const rank = info.shape.length;
    const coordNames = (attrText(info, 'coordinates') ?? '').split(/\s+/).filter(Boolean);
    const dims = info.shape.map((len, axis) => {
      const scale = info.scales[axis];
      if (scale) return scale;
      const id = info.ncDimIds[axis];
      if (id !== undefined && byDimId.has(id) && info.ncDimIds.length === rank) return byDimId.get(id)!;
      if (rank === 1 && !info.phony) return info.name;
      const prefer = rolePreference(axis, rank);
      const sameLength = oneD.filter((c) => c.shape[0] === len && c.name !== info.name);
      const fromCoordinates = sameLength.filter((c) => coordNames.includes(c.name));
      const pick =
        fromCoordinates.find((c) => prefer(roles.get(c.name) ?? null)) ??
        (fromCoordinates.length === 1 ? fromCoordinates[0] : undefined) ??
        sameLength.find((c) => prefer(roles.get(c.name) ?? null));
      return pick ? pick.name : `dim${axis}_${len}`;
    });
    out.set(info.name, dims);
  }
  return out;
}
