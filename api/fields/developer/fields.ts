/**
 * weather.php's Developer fields, assembled at read time from the nwp values
 * interpolated at the point (pure: no I/O; the caller samples the store).
 *
 * Consistency with the response: everything that depends on temperature is
 * computed from the altitude-corrected temperature the response reports and
 * the humidity kept by the correction (UTCI with the grid's mean radiant
 * temperature moved to that temperature; WBGT, frost and ET0 recomputed with
 * the science/ library); the UV index depends on the Sun, ozone and
 * cloud only. `comfort` and `uv_index` are always present (Developer and
 * above); `wbgt`, `frost` and `et0` when their group is selected. A field is
 * null when its inputs are missing there or the index is undefined (docs/api.md
 * "Developer fields").
 */
import { comfortField } from './comfort.js';
import { et0Field } from './et0.js';
import { frostField } from './frost.js';
import type { DeveloperInput } from './inputs.js';
import type { DeveloperFields } from './schema.js';
import { uvIndexField } from './uv.js';
import { wbgtField } from './wbgt.js';

/**
 * nwp variables the Developer fields read at the valid time, beyond the Free
 * ones (api/fields/base/variables.ts): sample them together.
 */
export const DEVELOPER_VARIABLES = [
  'temperature_2m',
  'mean_radiant_temperature',
  'shortwave_radiation',
  'cloud_cover',
  'total_ozone',
  'surface_pressure',
  'pressure_msl',
] as const;

/**
 * The Developer fields at one point, added to `out` (the response being
 * built: no object of their own to copy from) and returned.
 *
 * @param groups selected groups (`fields=`, default all); only wbgt, frost and et0 matter here
 */
export function developerFields(input: DeveloperInput, groups: ReadonlySet<string>, out: Record<string, unknown> = {}): DeveloperFields {
  out.comfort = comfortField(input);
  out.uv_index = uvIndexField(input);
  if (groups.has('wbgt')) out.wbgt = wbgtField(input);
  if (groups.has('frost')) out.frost = frostField(input);
  if (groups.has('et0')) out.et0 = et0Field(input);
  return out as DeveloperFields;
}
