/**
 * `uv_index`: clear-sky UV index from the Sun at the valid time and the
 * NWP total ozone, else CAMS global's (product `ozone`; Madronich 2007), times a cloud modification factor from
 * the satellite where a product of the `uv` feed covers the point and time
 * (SARAH's effective cloud albedo through the Heliosat clear-sky index, or
 * LSA SAF's clear-sky index, science/uv.ts), else the NWP radiation:
 * GHI / GHI_clear (Haurwitz) with the Sun at the middle of the radiation step,
 * else total cloud cover (US EPA table). Computed at the point rather than
 * interpolated from the grid's uv_index (same method, ingest/indices) so that
 * the Sun's position is exact for the instant. `source` says which inputs
 * were used.
 */
import {
  cloudModificationFromClearSkyIndex,
  cloudModificationFromCloudAlbedo,
  cloudModificationFromCloudCover,
  cloudModificationFromShortwave,
  uvCategory,
  uvCategoryLabelIt,
  uvIndex,
  uvIndexFromCosZenith,
} from '../../../science/index.js';
import { roundTo } from '../../weather/precision.js';
import { DEVELOPER_DECIMALS } from './decimals.js';
import { cosZenith, finite, radiationMidpointMs, type DeveloperInput } from './inputs.js';
import type { UvIndexBody } from './schema.js';

const DEG = Math.PI / 180;

/** `source` values: stable strings, listed in docs/api.md. */
export const UV_SOURCES = {
  satellite:
    'clear-sky UV index (Madronich 2007, NWP total ozone) × cloud modification from satellite effective cloud albedo (CM SAF SARAH, Heliosat clear-sky index)',
  satelliteNrt:
    'clear-sky UV index (Madronich 2007, NWP total ozone) × cloud modification from satellite clear-sky index (EUMETSAT LSA SAF MSG DSSF / Haurwitz clear sky, near real time)',
  shortwave:
    'clear-sky UV index (Madronich 2007, NWP total ozone) × cloud modification from NWP shortwave radiation (GHI/GHI_clear, Haurwitz); no satellite data for this time',
  cloudCover:
    'clear-sky UV index (Madronich 2007, NWP total ozone) × cloud modification from NWP total cloud cover (US EPA table); no satellite data for this time',
} as const;

/** Where the total ozone came from, as `source` names it: the UV_SOURCES strings name the NWP's. */
export const OZONE_SOURCES = { nwp: 'NWP total ozone', cams: 'CAMS global forecast total ozone' } as const;

type UvSource = keyof typeof UV_SOURCES;

/** UV_SOURCES with the ozone from CAMS, made once (not a string replace per answer where the NWP has no ozone: ICON's open data). */
const UV_SOURCES_CAMS_OZONE = Object.fromEntries(
  Object.entries(UV_SOURCES).map(([k, v]) => [k, v.replace(OZONE_SOURCES.nwp, OZONE_SOURCES.cams)]),
) as Record<UvSource, string>;

/** The uv_index field, or null without total ozone or any cloud information. */
export function uvIndexField(inp: DeveloperInput): UvIndexBody | null {
  const nwpOzone = finite(inp.values.total_ozone);
  const ozone = nwpOzone ?? finite(inp.camsTotalOzoneDu);
  if (ozone === null) return null;
  // science/uv.ts uvIndexClearSky's formula, with the answer's Sun at the valid time.
  const clear = uvIndexFromCosZenith(Math.cos(inp.sun.at(inp.timeMs).zenith * DEG), ozone);
  const sw = finite(inp.values.shortwave_radiation);
  const cloud = finite(inp.values.cloud_cover);
  let cmf: number;
  let source: UvSource;
  const cal = inp.satelliteCloudAlbedo ?? null;
  const k = inp.satelliteClearSkyIndex ?? null;
  if (cal !== null && Number.isFinite(cal)) {
    cmf = cloudModificationFromCloudAlbedo(cal);
    source = 'satellite';
  } else if (k !== null && Number.isFinite(k)) {
    cmf = cloudModificationFromClearSkyIndex(k);
    source = 'satelliteNrt';
  } else if (sw !== null) {
    cmf = cloudModificationFromShortwave(sw, cosZenith(inp.sun.at(radiationMidpointMs(inp))));
    source = 'shortwave';
  } else if (cloud !== null) {
    cmf = cloudModificationFromCloudCover(cloud / 100);
    source = 'cloudCover';
  } else {
    return null;
  }
  const uvi = uvIndex(clear, cmf);
  const category = uvCategory(uvi);
  if (category === null) return null;
  return {
    value: roundTo(uvi, DEVELOPER_DECIMALS.uv_index),
    category,
    category_it: uvCategoryLabelIt(category),
    clear_sky: roundTo(clear, DEVELOPER_DECIMALS.uv_index),
    cloud_modification: roundTo(cmf, DEVELOPER_DECIMALS.cloud_modification),
    source: (nwpOzone === null ? UV_SOURCES_CAMS_OZONE : UV_SOURCES)[source],
  };
}
