/**
 * Solar position for a point on the Earth: geometric (unrefracted) zenith and
 * azimuth, with the Sun's declination and Earth–Sun distance that the
 * radiation formulas need.
 *
 * Method: the Sun's apparent geocentric coordinates from Meeus, "Astronomical
 * Algorithms" (2nd ed. 1998) ch. 25 (low-accuracy theory, ~0.01° in longitude),
 * the formulation of the NOAA Solar Calculator; hour angle from the apparent
 * sidereal time (Meeus ch. 12 and 22, nutation in longitude to first order);
 * topocentric correction for solar parallax (8.794″). Against NREL SPA (Reda &
 * Andreas 2004, ±0.0003°) this agrees to about 0.005° in zenith over
 * 1950–2050; the Spencer (1971) Fourier series is not used because it errs by
 * up to 0.35° in declination.
 */

const DEG = Math.PI / 180;
/** Mean ΔT = TT − UT, s, for the 2020s (IERS Bulletin A ~69 s). Shifts the Sun by < 0.001°. */
const DELTA_T_S = 69;

/** Geometric position of the Sun seen from a point. Angles in degrees. */
export interface SolarPosition {
  /** Geometric zenith angle, degrees (0 overhead, 90 on the horizon, > 90 below). */
  readonly zenith: number;
  /** Azimuth, degrees clockwise from true north, 0..360. */
  readonly azimuth: number;
}

/** Solar position plus the intermediate quantities of the computation. */
export interface SolarGeometry extends SolarPosition {
  /** Apparent declination, degrees. */
  readonly declination: number;
  /** Local hour angle, degrees, -180..180 (0 at solar noon, positive afternoon). */
  readonly hourAngle: number;
  /** Earth–Sun distance, astronomical units. */
  readonly distanceAu: number;
  /** Equation of time, minutes (apparent minus mean solar time). */
  readonly equationOfTimeMin: number;
}

/**
 * Geometric solar zenith and azimuth (NOAA/Meeus class, ~0.01°).
 *
 * @param time instant (UTC)
 * @param lat latitude, degrees north (-90..90)
 * @param lon longitude, degrees east (-180..180)
 * @returns zenith and azimuth, degrees
 */
export function solarPosition(time: Date, lat: number, lon: number): SolarPosition {
  return solarGeometry(time, lat, lon);
}

/**
 * Full solar geometry (see module comment for the method).
 *
 * Equations (Meeus 1998, T in Julian centuries TT from J2000.0):
 *   L0 = 280.46646 + 36000.76983 T + 0.0003032 T²            (mean longitude)
 *   M  = 357.52911 + 35999.05029 T − 0.0001537 T²             (mean anomaly)
 *   C  = (1.914602 − 0.004817 T − 0.000014 T²) sin M + (0.019993 − 0.000101 T) sin 2M + 0.000289 sin 3M
 *   λ  = L0 + C − 0.00569 − 0.00478 sin Ω,  Ω = 125.04 − 1934.136 T
 *   ε  = ε0 + 0.00256 cos Ω;  δ = asin(sin ε sin λ);  α = atan2(cos ε sin λ, cos λ)
 *   θ  = GMST + Δψ cos ε;  H = θ + lon − α
 *   cos z = sin φ sin δ + cos φ cos δ cos H
 *
 * @param time instant (UTC)
 * @param lat latitude, degrees north
 * @param lon longitude, degrees east
 */
export function solarGeometry(time: Date, lat: number, lon: number): SolarGeometry {
  return computeGeometry(time.getTime(), lat, lon);
}

/**
 * The Sun seen from one point, each instant computed once: a weather answer
 * asks it at its valid time (the condition's day or night, the clear-sky UV
 * index) and at the middle of the radiation step (WBGT, the UV cloud factor).
 * One per answer (api/weather/service.ts), passed down to the fields; the
 * results are read-only, so the fields share them. The point's sin φ and
 * cos φ are taken once for both instants.
 */
export class SunAtPoint {
  private ms0 = NaN;
  private sun0: SolarGeometry | null = null;
  private ms1 = NaN;
  private sun1: SolarGeometry | null = null;
  readonly sinPhi: number;
  readonly cosPhi: number;

  /** `lat`, `lon`: degrees north / east. */
  constructor(
    readonly lat: number,
    readonly lon: number,
  ) {
    const phi = lat * DEG;
    this.sinPhi = Math.sin(phi);
    this.cosPhi = Math.cos(phi);
  }

  /** The solar geometry at `timeMs` (ms since the epoch, UTC); the first two instants asked are kept. */
  at(timeMs: number): SolarGeometry {
    if (timeMs === this.ms0) return this.sun0!;
    if (timeMs === this.ms1) return this.sun1!;
    const g = seenFrom(ephemeris(timeMs), this, this.lon);
    if (this.sun0 === null) {
      this.ms0 = timeMs;
      this.sun0 = g;
    } else if (this.sun1 === null) {
      this.ms1 = timeMs;
      this.sun1 = g;
    }
    return g;
  }
}

/**
 * The part of the solar position that depends on the instant alone (Meeus
 * 1998 ch. 25, 12 and 22), for the last two instants asked, in slots of
 * EPHEMERIS_FIELDS doubles (unboxed: a miss allocates nothing more than the
 * geometry did). Every point of the same instant shares them: the answers of
 * a batch are at one clock reading (`now`, to the millisecond) and at the
 * middle of its radiation step, so the seventeen trigonometric calls of the
 * instant's part are made once for all of them; a point's own part is three
 * (its azimuth's three more when read).
 * A cache of a pure function: what it gives is what computing again would.
 */
const EPHEMERIS_FIELDS = 8;
/** Offsets in a slot: the instant (ms, UTC); apparent declination δ (rad), sin δ, cos δ; apparent sidereal time at Greenwich (degrees, unreduced); apparent right ascension (degrees); Earth–Sun distance (AU); equation of time (min). */
const MS = 0;
const DECL = 1;
const SIN_DECL = 2;
const COS_DECL = 3;
const GAST = 4;
const RA = 5;
const DISTANCE = 6;
const EOT = 7;
const slots = new Float64Array(2 * EPHEMERIS_FIELDS).fill(NaN);
/** The slot written last (the other is replaced next). */
let newest = 0;

/** The offset in `slots` of the ephemeris of `ms`, computed when neither slot holds it. */
function ephemeris(ms: number): number {
  if (slots[newest + MS] === ms) return newest;
  const other = EPHEMERIS_FIELDS - newest;
  if (slots[other + MS] === ms) return other;
  computeEphemeris(ms, other);
  newest = other;
  return other;
}

function computeGeometry(ms: number, lat: number, lon: number): SolarGeometry {
  const phi = lat * DEG;
  return seenFrom(ephemeris(ms), { sinPhi: Math.sin(phi), cosPhi: Math.cos(phi) }, lon);
}

/** The instant's part (see {@link solarGeometry} for the equations), into the slot at `at`. */
function computeEphemeris(ms: number, at: number): void {
  const jdUt = ms / 86_400_000 + 2_440_587.5;
  const dUt = jdUt - 2_451_545.0;
  const t = (dUt + DELTA_T_S / 86_400) / 36_525;

  const l0 = mod360(280.46646 + t * (36000.76983 + t * 0.0003032));
  const m = 357.52911 + t * (35999.05029 - 0.0001537 * t);
  const e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t);
  const mr = m * DEG;
  const c =
    Math.sin(mr) * (1.914602 - t * (0.004817 + 0.000014 * t)) +
    Math.sin(2 * mr) * (0.019993 - 0.000101 * t) +
    Math.sin(3 * mr) * 0.000289;
  const trueLong = l0 + c;
  const trueAnom = (m + c) * DEG;
  const distanceAu = (1.000001018 * (1 - e * e)) / (1 + e * Math.cos(trueAnom));

  const omega = (125.04 - 1934.136 * t) * DEG;
  const lambda = (trueLong - 0.00569 - 0.00478 * Math.sin(omega)) * DEG;
  const eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
  const eps = (eps0 + 0.00256 * Math.cos(omega)) * DEG;

  const decl = Math.asin(Math.sin(eps) * Math.sin(lambda));
  const ra = Math.atan2(Math.cos(eps) * Math.sin(lambda), Math.cos(lambda)) / DEG;

  // Apparent sidereal time (Meeus eq. 12.4 plus the equation of the equinoxes).
  const tUt = dUt / 36_525;
  const gmst = 280.46061837 + 360.98564736629 * dUt + tUt * tUt * (0.000387933 - tUt / 38_710_000);
  const nutLon = -0.00478 * Math.sin(omega);
  const gast = gmst + nutLon * Math.cos(eps);

  const s = slots;
  s[at + MS] = ms;
  s[at + DECL] = decl;
  s[at + SIN_DECL] = Math.sin(decl);
  s[at + COS_DECL] = Math.cos(decl);
  s[at + GAST] = gast;
  s[at + RA] = ra;
  s[at + DISTANCE] = distanceAu;
  s[at + EOT] = 4 * wrap180(l0 - 0.0057183 - ra + nutLon * Math.cos(eps));
}

/** A point's latitude as the Sun seen from it needs it: sin φ, cos φ. */
interface Latitude {
  readonly sinPhi: number;
  readonly cosPhi: number;
}

/**
 * The Sun seen from a point at an instant. The zenith and the distance (what the answers read) are computed; the
 * azimuth and the declination in degrees on reading, from the values kept (the same doubles as computed at once:
 * the azimuth's atan2 and the conversions were ~0.1 µs of an every-product answer, unused).
 */
class SunSeen implements SolarGeometry {
  constructor(
    readonly zenith: number,
    readonly hourAngle: number,
    readonly distanceAu: number,
    /** Apparent declination, radians. */
    private readonly decl: number,
    readonly equationOfTimeMin: number,
    private readonly from: Latitude,
  ) {}

  /** azimuth from atan2(sin H, cos H sin φ − tan δ cos φ), degrees clockwise from north. */
  get azimuth(): number {
    const h = this.hourAngle * DEG;
    const from = this.from;
    return mod360(Math.atan2(Math.sin(h), Math.cos(h) * from.sinPhi - Math.tan(this.decl) * from.cosPhi) / DEG + 180);
  }

  get declination(): number {
    return this.decl / DEG;
  }
}

/**
 * The Sun of the ephemeris at `at` seen from a point (sin φ, cos φ of its latitude; λ its longitude, degrees east):
 *   H = θ + λ − α;  cos z = sin φ sin δ + cos φ cos δ cos H;  azimuth from atan2(sin H, cos H sin φ − tan δ cos φ)
 */
function seenFrom(at: number, from: Latitude, lon: number): SolarGeometry {
  const s = slots;
  const hourAngle = wrap180(s[at + GAST]! + lon - s[at + RA]!);
  const h = hourAngle * DEG;
  const cosH = Math.cos(h);
  const distanceAu = s[at + DISTANCE]!;
  const cosZ = from.sinPhi * s[at + SIN_DECL]! + from.cosPhi * s[at + COS_DECL]! * cosH;
  let zenith = Math.acos(Math.max(-1, Math.min(1, cosZ))) / DEG;
  // Topocentric parallax: the Sun appears lower by 8.794″·sin z / R.
  zenith += ((8.794 / 3600) * Math.sin(zenith * DEG)) / distanceAu;
  return new SunSeen(zenith, hourAngle, distanceAu, s[at + DECL]!, s[at + EOT]!, from);
}

/**
 * Cosine of the geometric solar zenith angle, clamped to ≥ 0 (0 when the Sun
 * is below the horizon). Convenience for radiation formulas.
 */
export function cosSolarZenith(time: Date, lat: number, lon: number): number {
  return Math.max(0, Math.cos(solarPosition(time, lat, lon).zenith * DEG));
}

/**
 * Whether the Sun is up: geometric zenith < 90.833°, the conventional
 * sunrise/sunset altitude (−0.833° = 34′ refraction + 16′ semidiameter; NOAA,
 * USNO). For day/night icons.
 */
export function isDaytime(time: Date, lat: number, lon: number): boolean {
  return solarPosition(time, lat, lon).zenith < 90.833;
}

function mod360(x: number): number {
  const r = x % 360;
  return r < 0 ? r + 360 : r;
}

function wrap180(x: number): number {
  const r = mod360(x);
  return r > 180 ? r - 360 : r;
}
