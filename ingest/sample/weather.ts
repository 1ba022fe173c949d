/**
 * A synthetic but physically consistent atmosphere for the sample dataset,
 * one hour at a time, in the units and conventions of an ERA5 NetCDF file
 * (K, Pa, m s-1, 0..1, m of water, J m-2 summed over the preceding hour).
 *
 * - Pressure: a subtropical high plus a low that crosses Italy from west to
 *   east (position, speed and depth seeded by the run time), plus noise.
 * - Wind: geostrophic wind of that pressure field (u = −∂p/∂y / ρf,
 *   v = ∂p/∂x / ρf; Holton 2004 §3.2), reduced and turned toward low
 *   pressure at 10 m (sea 0.7 and 15°, land 0.4–0.7 and 30°).
 * - Clouds: advected noise plus a frontal band east of the low and
 *   orographic cloud; precipitation from thick cloud (stronger near the front
 *   and over mountains) plus summer-afternoon showers over inland hills.
 * - Temperature: sea-level climatology by latitude and day of year, 6.5 K/km
 *   lapse rate, diurnal cycle on local solar time damped by cloud, warm
 *   sector ahead of the low.
 * - Humidity: relative humidity from surface type, cloud, precipitation and
 *   the diurnal cycle; dew point by Magnus (derive lib).
 * - Snow: the fraction of precipitation falling as snow goes from 1 to 0
 *   between −0.5 and 2 °C (2 m temperature thresholds of this kind:
 *   Dai 2008, GRL 35 L12802).
 * - Radiation: clear-sky global irradiance of Haurwitz (1945),
 *   1098 cos z · exp(−0.057 / cos z) W/m²; cloud attenuation of Kasten &
 *   Czeplak (1980), 1 − 0.75 N^3.4; direct part 0.8·(1 − N)² of clear sky;
 *   downward longwave ε σ T⁴ with Brutsaert (1975) clear-sky emissivity
 *   1.24 (e/T)^(1/7) and cloud factor 1 + 0.22 N² (Crawford & Duchon 1999 form).
 * - Surface pressure from MSLP by the hypsometric equation; total ozone
 *   ~300 DU with a spring maximum; weather code from cloud and precipitation
 *   (derive lib weatherCodeFromState).
 */
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { dewPoint, GRAVITY, R_DRY_AIR, saturationVapourPressure, solarGeometry, STEFAN_BOLTZMANN, weatherCodeFromState } from '../../science/index.js';
import { hash3, valueNoise } from './noise.js';
import type { Terrain } from './terrain.js';

export const SAMPLE_VARIABLES = ['t2m', 'd2m', 'msl', 'sp', 'u10', 'v10', 'i10fg', 'tcc', 'tp', 'sf', 'ssrd', 'fdir', 'strd', 'tco3', 'ww'] as const;
export type SampleVariable = (typeof SAMPLE_VARIABLES)[number];
export type HourFields = Record<SampleVariable, Float32Array>;

const DEG = Math.PI / 180;
const OMEGA = 7.2921e-5; // Earth's rotation, rad/s
const AIR_DENSITY = 1.2; // kg/m³ near the surface
const M_PER_DEG = 111_195;
const KG_PER_M2_PER_DU = 2.1415e-5;

interface Low {
  lat0: number;
  lon0: number;
  dLatPerH: number;
  dLonPerH: number;
  depthHpa: number;
  sigmaDeg: number;
}

export interface WeatherContext {
  grid: RegularLatLonGrid;
  terrain: Terrain;
  run: Date;
  seed: number;
  low: Low;
}

export function weatherContext(grid: RegularLatLonGrid, terrain: Terrain, run: Date, seed: number): WeatherContext {
  const r = (k: number) => hash3(seed, k, 99);
  const low: Low = {
    lat0: 42 + 4 * r(1),
    lon0: -1 + 4 * r(2),
    dLatPerH: -0.02 + 0.04 * r(3),
    dLonPerH: 0.28 + 0.12 * r(4),
    depthHpa: 10 + 10 * r(5),
    sigmaDeg: 4 + 2 * r(6),
  };
  return { grid, terrain, run, seed, low };
}

/**
 * Gaussian bump centred at (cLat, cLon) with width σ degrees (longitudes
 * shrunk by cos 42°), separable: value at (j, i) = rows[j] · cols[i].
 */
function bump(grid: RegularLatLonGrid, cLat: number, cLon: number, sigma: number): { rows: Float64Array; cols: Float64Array } {
  const k = 1 / (2 * sigma * sigma);
  const rows = Float64Array.from({ length: grid.ny }, (_, j) => Math.exp(-((grid.y0 + j * grid.dy - cLat) ** 2) * k));
  const cols = Float64Array.from({ length: grid.nx }, (_, i) => Math.exp(-(((grid.x0 + i * grid.dx - cLon) * 0.743) ** 2) * k));
  return { rows, cols };
}

function dayOfYear(t: Date): number {
  return (t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 1)) / 86_400_000;
}

/** All sample variables valid at `time` (accumulations over the hour ending then). */
export function weatherAt(ctx: WeatherContext, time: Date): HourFields {
  const { grid, terrain, low, seed } = ctx;
  const { nx, ny } = grid;
  const n = nx * ny;
  const out = Object.fromEntries(SAMPLE_VARIABLES.map((v) => [v, new Float32Array(n)])) as HourFields;
  const h = (time.getTime() - ctx.run.getTime()) / 3_600_000;
  const doy = dayOfYear(time);
  const yearPhase = (2 * Math.PI * doy) / 365.25;
  const mid = new Date(time.getTime() - 1_800_000);
  const sun = solarGeometry(mid, 42, 12);
  const sinDecl = Math.sin(sun.declination * DEG);
  const cosDecl = Math.cos(sun.declination * DEG);
  const utcHours = time.getUTCHours() + time.getUTCMinutes() / 60;
  const midUtcHours = utcHours - 0.5;
  const eotH = sun.equationOfTimeMin / 60;

  const lowLat = low.lat0 + low.dLatPerH * h;
  const lowLon = low.lon0 + low.dLonPerH * h;
  const depth = low.depthHpa * (0.75 + 0.25 * Math.sin((Math.PI * Math.min(h, 60)) / 60));
  const summer = Math.max(0, Math.sin(yearPhase - (2 * Math.PI * 100) / 365.25));
  const winter = Math.cos(yearPhase - (2 * Math.PI * 15) / 365.25);

  const high = bump(grid, 36, -5, 10);
  const lowB = bump(grid, lowLat, lowLon, low.sigmaDeg);
  const frontB = bump(grid, lowLat + 0.5, lowLon + 2.5, 3.5);
  // Per column: local solar hour at the valid time and at mid-hour.
  const solarHourCol = new Float64Array(nx);
  const cosHourAngleCol = new Float64Array(nx);
  for (let i = 0; i < nx; i++) {
    const lon = grid.x0 + i * grid.dx;
    solarHourCol[i] = (((utcHours + lon / 15 + eotH) % 24) + 24) % 24;
    cosHourAngleCol[i] = Math.cos(((((midUtcHours + lon / 15 + eotH) % 24) + 24) % 24 - 12) * 15 * DEG);
  }

  // 1. Mean sea level pressure, hPa.
  const msl = out.msl;
  for (let j = 0; j < ny; j++) {
    const lat = grid.y0 + j * grid.dy;
    for (let i = 0; i < nx; i++) {
      const lon = grid.x0 + i * grid.dx;
      const noise = valueNoise(lon / 4 - h * 0.02, lat / 4, seed + 10) - 0.5;
      msl[j * nx + i] = 1013 - 0.25 * (lat - 42) + 7 * high.rows[j]! * high.cols[i]! - depth * lowB.rows[j]! * lowB.cols[i]! + 2 * noise;
    }
  }

  for (let j = 0; j < ny; j++) {
    const lat = grid.y0 + j * grid.dy;
    const sinLat = Math.sin(lat * DEG);
    const cosLat = Math.cos(lat * DEG);
    const f = 2 * OMEGA * sinLat;
    const dyM = 2 * grid.dy * M_PER_DEG;
    const dxM = 2 * grid.dx * M_PER_DEG * cosLat;
    const jn = Math.min(ny - 1, j + 1);
    const js = Math.max(0, j - 1);
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i;
      const lon = grid.x0 + i * grid.dx;
      const z = terrain.elevationM[k]!;
      const land = terrain.land[k] === 1;

      // 2. Geostrophic wind from the pressure gradient (centred differences, Pa/m).
      const ie = Math.min(nx - 1, i + 1);
      const iw = Math.max(0, i - 1);
      const dpdx = ((msl[j * nx + ie]! - msl[j * nx + iw]!) * 100) / (dxM * ((ie - iw) / 2));
      const dpdy = ((msl[jn * nx + i]! - msl[js * nx + i]!) * 100) / (dyM * ((jn - js) / 2));
      const ug = -dpdy / (AIR_DENSITY * f);
      const vg = dpdx / (AIR_DENSITY * f);

      // 3. Clouds (0..1) and precipitation (mm over the hour).
      const front = frontB.rows[j]! * frontB.cols[i]!;
      const lowHere = lowB.rows[j]! * lowB.cols[i]!;
      const cloudNoise = valueNoise((lon - 0.25 * h) / 2, (lat - 0.04 * h) / 2, seed + 20) * 0.65 + valueNoise((lon - 0.25 * h) / 0.6, lat / 0.6, seed + 21) * 0.35;
      const raw = 0.65 * cloudNoise + 0.6 * front + 0.15 * Math.min(1, z / 1500) + 0.08 * winter - 0.05;
      let tcc = Math.min(1, Math.max(0, (raw - 0.3) / 0.4));
      const strat = tcc > 0.8 ? ((tcc - 0.8) / 0.2) * (0.3 + 4 * front) * (1 + z / 1500) : 0;
      const solarHour = solarHourCol[i]!;
      const afternoon = solarHour > 11 && solarHour < 19 ? Math.sin((Math.PI * (solarHour - 11)) / 8) : 0;
      let conv = 0;
      if (land && summer > 0 && afternoon > 0) {
        const cell = valueNoise(lon * 2.5 - 0.1 * h, lat * 2.5, seed + 30);
        conv = 6 * summer * afternoon * Math.max(0, cell - 0.6) / 0.4 * Math.min(1, 0.3 + z / 1000);
        if (conv > 0.05) tcc = Math.max(tcc, 0.75 + 0.25 * Math.min(1, conv / 3));
      }
      const precipMm = strat + conv;

      // 4. Temperature, °C then K.
      const dshape = Math.cos((2 * Math.PI * (solarHour - 15)) / 24);
      const seaLevelT = land
        ? 15 - 0.6 * (lat - 42) - (7 + 0.35 * (lat - 36)) * Math.cos(yearPhase - (2 * Math.PI * 20) / 365.25) + ((6 + 3 * Math.sin(yearPhase - (2 * Math.PI * 80) / 365.25)) * (1 - 0.6 * tcc) * dshape) / 2
        : 18.5 - 0.45 * (lat - 38) - 5.5 * Math.cos(yearPhase - (2 * Math.PI * 45) / 365.25) + 0.5 * dshape;
      const warmSector = 3.5 * (((lon - lowLon) * 0.743) / low.sigmaDeg) * lowHere;
      const tC = seaLevelT - 0.0065 * z + warmSector + 1.5 * (cloudNoise - 0.5) - 0.8 * Math.min(1, precipMm);
      const tK = tC + 273.15;

      // 5. Humidity: RH (%) → dew point.
      const rh = Math.min(100, Math.max(10, (land ? 60 : 78) + 25 * tcc - (land ? 15 : 4) * dshape + 12 * Math.min(1, precipMm) + 10 * (cloudNoise - 0.5) + 5 * (z / 1000)));
      const tdC = dewPoint(tC, rh);

      // 6. Snow fraction and amounts (m of water over the hour).
      const snowFrac = Math.min(1, Math.max(0, (2 - tC) / 2.5));

      // 7. 10 m wind, turned toward low pressure and reduced by friction; gust.
      const alpha = (land ? 30 : 15) * DEG;
      const reduce = land ? 0.4 + 0.3 * Math.min(1, z / 2500) : 0.7;
      let u = reduce * (ug * Math.cos(alpha) - vg * Math.sin(alpha)) + 2 * (cloudNoise - 0.5);
      let v = reduce * (ug * Math.sin(alpha) + vg * Math.cos(alpha));
      const speed = Math.hypot(u, v);
      if (speed > 30) {
        u *= 30 / speed;
        v *= 30 / speed;
      }
      const gust = Math.min(speed, 30) * (land ? 1.6 : 1.3) + 2 * Math.min(conv, 5) + 1;

      // 8. Radiation over the hour ending at `time`, from the Sun at mid-hour.
      const cosZ = sinLat * sinDecl + cosLat * cosDecl * cosHourAngleCol[i]!;
      const clearSky = cosZ > 0.01 ? 1098 * cosZ * Math.exp(-0.057 / cosZ) * (1 + 0.05 * (z / 1000)) : 0;
      const ghi = clearSky * (1 - 0.75 * tcc ** 3.4);
      const direct = clearSky * 0.8 * (1 - tcc) ** 2;
      const e = saturationVapourPressure(tdC);
      const emissivity = Math.min(1, 1.24 * (e / tK) ** (1 / 7) * (1 + 0.22 * tcc * tcc));
      const lw = emissivity * STEFAN_BOLTZMANN * tK ** 4;

      // 9. Surface pressure (hypsometric, mean temperature of the layer below the surface).
      const layerT = tK + (0.0065 * z) / 2;
      const sp = msl[k]! * 100 * Math.exp((-GRAVITY * z) / (R_DRY_AIR * layerT));

      // 10. Total ozone, DU → kg m-2 (ERA5 tco3 units).
      const du = 300 + 30 * Math.sin(yearPhase - (2 * Math.PI * 10) / 365.25) + 1.5 * (lat - 42) + 15 * lowHere + 6 * (cloudNoise - 0.5);

      out.t2m[k] = tK;
      out.d2m[k] = tdC + 273.15;
      out.sp[k] = sp;
      out.u10[k] = u;
      out.v10[k] = v;
      out.i10fg[k] = gust;
      out.tcc[k] = tcc;
      out.tp[k] = precipMm / 1000;
      out.sf[k] = (precipMm * snowFrac) / 1000;
      out.ssrd[k] = ghi * 3600;
      out.fdir[k] = direct * 3600;
      out.strd[k] = lw * 3600;
      out.tco3[k] = du * KG_PER_M2_PER_DU;
      out.ww[k] = weatherCodeFromState({ cloudCoverPct: tcc * 100, precipitationMm: precipMm, snowfallFraction: snowFrac, convectivePrecipitationMm: conv, temperature2mC: tC, stepHours: 1 });
    }
  }
  for (let k = 0; k < n; k++) msl[k] = msl[k]! * 100; // hPa → Pa, as ERA5 writes it
  return out;
}
