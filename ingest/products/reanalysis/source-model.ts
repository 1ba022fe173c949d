/**
 * Which reanalysis a set of files comes from, when the operator does not say
 * (`--model`): NOAA PSL names 20CRv3 files after the variable and year
 * (`air.2m.1925.nc`, `prmsl.1925.nc`, `hgt.sfc.nc`); ERA5-Land files from the
 * CDS usually carry "era5land"/"era5-land"; anything else is taken as ERA5,
 * the reanalysis the product is fed from 1940. Recorded in the manifest and
 * named in `temperature_source`.
 */
import { basename } from 'node:path';

const PSL_20CR = /^(air\.2m|prmsl|uwnd\.10m|vwnd\.10m|rhum\.2m|shum\.2m|hgt\.sfc|apcp|tcdc\.eatm|prate)(\.\d{4})?\.nc$/i;

export function reanalysisModel(files: readonly string[]): string {
  const names = files.map((f) => basename(f));
  if (names.length > 0 && names.every((n) => PSL_20CR.test(n))) return '20CRv3';
  if (names.some((n) => /era5[-_]?land/i.test(n))) return 'ERA5-Land';
  return 'ERA5';
}
