/**
 * `METEOPUNTO_DOMAIN=<south>,<north>,<west>,<east>` (degrees): the box ingest
 * crops every product's grid to (plus a margin of cells). Default: the
 * box weather.php accepts around Italy (docs/api.md, parameters: lat 35..48, lon
 * 5..20.5). Widening it lets a file elsewhere (CAMS Europe over Spain in the
 * tests) be ingested; the API's lat/lon validation does not follow it.
 */

/** A latitude/longitude box, degrees (longitudes −180..180, west < east). */
export interface Domain {
  latMin: number;
  latMax: number;
  lonMin: number;
  lonMax: number;
}

export const DEFAULT_DOMAIN: Readonly<Domain> = Object.freeze({ latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 });

export class DomainConfigError extends Error {}

/**
 * The crop domain from the environment; DomainConfigError naming the
 * variable and what is wrong for a malformed value.
 */
export function domainFromEnv(env: Readonly<Record<string, string | undefined>>): Domain {
  const raw = env.METEOPUNTO_DOMAIN;
  if (raw === undefined || raw.trim() === '') return { ...DEFAULT_DOMAIN };
  const fail = (why: string): never => {
    throw new DomainConfigError(`METEOPUNTO_DOMAIN='${raw}': ${why} (expected <south>,<north>,<west>,<east> in degrees, e.g. 35,48,5,20.5)`);
  };
  const parts = raw.split(',').map((s) => s.trim());
  if (parts.length !== 4) fail(`${parts.length} values, need 4`);
  const nums = parts.map((p) => (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(p) ? Number(p) : NaN));
  const names = ['south', 'north', 'west', 'east'];
  nums.forEach((n, i) => {
    if (!Number.isFinite(n)) fail(`${names[i]} '${parts[i]}' is not a number`);
  });
  const [south, north, west, east] = nums as [number, number, number, number];
  if (south < -90 || north > 90) fail('latitudes must lie in -90..90');
  if (west < -180 || east > 180) fail('longitudes must lie in -180..180');
  if (!(south < north)) fail('south must be less than north');
  if (!(west < east)) fail('west must be less than east');
  return { latMin: south, latMax: north, lonMin: west, lonMax: east };
}
