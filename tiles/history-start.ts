/**
 * The earliest time the service holds: reanalysis years start at 1920
 * (NOAA-CIRES-DOE 20CRv3 for 1920–1939, ERA5 from 1940; docs/history.md).
 * Shared by ingest (nothing earlier is published) and the API (an earlier
 * `time=` is a 400 naming this limit).
 */
export const HISTORY_START_YEAR = 1920;
export const HISTORY_START_MS = Date.UTC(HISTORY_START_YEAR, 0, 1);
export const HISTORY_START_ISO = '1920-01-01T00:00';
