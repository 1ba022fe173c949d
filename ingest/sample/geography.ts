/**
 * Where the sample's synthetic air pollution gathers: the Po plain, as an
 * ellipse (the terrain itself is real: ./terrain.ts).
 */

/** The Po plain: centre and semi-axes in degrees. */
export const PO_PLAIN = { lat: 45.05, lon: 10.6, semiLat: 0.45, semiLon: 2.2 } as const;
