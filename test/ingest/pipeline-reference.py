#!/usr/bin/python3
"""Independent reference values for the ingest end-to-end tests.

Reads a raster with python GDAL (GRIB: its own degrib decoder, not ecCodes)
or python netCDF4 (netCDF-C/HDF5, not our h5wasm/netcdfjs readers), finds the
four cells around a point in the file's own coordinates (rotated-pole grids:
rotated with the textbook rotation below, not proj4), and prints the bilinear
value as JSON: {"value": v, "corners": [...], "weights": [...]}.

Usage:
  pipeline-reference.py gdal <file> <band> <lat> <lon> [--grid x0,ytop,dx,dy] [--rotated splat,splon]
  pipeline-reference.py netcdf <file> <var> <time-index> <lat> <lon>
Values are raw source values in source units (no unit conversion here).
"""
import json
import math
import sys


def rotate(lat, lon, sp_lat, sp_lon):
    """Geographic -> rotated lat/lon for a grid whose southern pole is (sp_lat, sp_lon).

    Cartesian rotation: turn by -sp_lon about z, then by (90 + sp_lat) about y,
    so that geographic (90 + sp_lat, sp_lon) lands on rotated (0, 0).
    """
    r = math.radians
    th = r(90 + sp_lat)
    x = math.cos(r(lat)) * math.cos(r(lon - sp_lon))
    y = math.cos(r(lat)) * math.sin(r(lon - sp_lon))
    z = math.sin(r(lat))
    x2 = math.cos(th) * x + math.sin(th) * z
    z2 = -math.sin(th) * x + math.cos(th) * z
    return math.degrees(math.asin(z2)), math.degrees(math.atan2(y, x2))


def bilinear(get, fx, fy, nx, ny):
    i0, j0 = int(math.floor(fx)), int(math.floor(fy))
    i0, j0 = min(max(i0, 0), nx - 2), min(max(j0, 0), ny - 2)
    tx, ty = fx - i0, fy - j0
    cells = [(i0, j0), (i0 + 1, j0), (i0, j0 + 1), (i0 + 1, j0 + 1)]
    weights = [(1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty]
    vals = [get(i, j) for i, j in cells]
    ok = [(v, w) for v, w in zip(vals, weights) if v is not None and not math.isnan(v)]
    wsum = sum(w for _, w in ok)
    value = sum(v * w for v, w in ok) / wsum if wsum > 0 else None
    return {"value": value, "corners": vals, "weights": weights, "cells": cells}


def from_gdal(path, band, lat, lon, grid=None, rotated=None):
    from osgeo import gdal
    gdal.UseExceptions()
    gdal.SetConfigOption("GRIB_NORMALIZE_UNITS", "NO")  # keep K, Pa: the test converts by hand
    ds = gdal.Open(path)
    b = ds.GetRasterBand(band)
    a = b.ReadAsArray().astype(float)
    nodata = b.GetNoDataValue()
    if grid:
        x0, ytop, dx, dy = grid  # centre of the top-left cell, degrees
    else:
        gt = ds.GetGeoTransform()
        x0, ytop, dx, dy = gt[0] + gt[1] / 2, gt[3] + gt[5] / 2, gt[1], -gt[5]
    y, x = (rotate(lat, lon, *rotated) if rotated else (lat, lon))
    ny, nx = a.shape
    fx = (x - x0) / dx
    if fx < 0:
        fx += 360 / dx
    fy = (ytop - y) / dy  # GDAL rows run north -> south

    def get(i, j):
        v = a[j, i]
        return None if nodata is not None and v == nodata else float(v)

    # rows go southward: bilinear over (fx, fy) with j increasing south is still bilinear
    return bilinear(get, fx, fy, nx, ny)


def from_netcdf(path, var, t, lat, lon):
    import netCDF4
    import numpy as np
    ds = netCDF4.Dataset(path)
    v = ds.variables[var]
    v.set_auto_maskandscale(True)  # CF scale_factor/add_offset/_FillValue by netCDF4
    lats = np.asarray(ds.variables["latitude"][:], dtype=float)
    lons = np.asarray(ds.variables["longitude"][:], dtype=float)
    dy, dx = lats[1] - lats[0], lons[1] - lons[0]
    x = lon % 360 if lons.max() > 180 else lon
    fx = (x - lons[0]) / dx
    fy = (lat - lats[0]) / dy  # negative dy (descending) gives the right fractional row too
    data = v[t, :, :] if v.ndim == 3 else v[:, :]

    def get(i, j):
        val = data[j, i]
        return None if np.ma.is_masked(val) else float(val)

    return bilinear(get, fx, fy, len(lons), len(lats))


def main(argv):
    kind = argv[0]
    if kind == "gdal":
        path, band, lat, lon = argv[1], int(argv[2]), float(argv[3]), float(argv[4])
        grid = rotated = None
        rest = argv[5:]
        while rest:
            flag, val = rest[0], rest[1]
            rest = rest[2:]
            if flag == "--grid":
                grid = [float(s) for s in val.split(",")]
            elif flag == "--rotated":
                rotated = [float(s) for s in val.split(",")]
        out = from_gdal(path, band, lat, lon, grid, rotated)
    elif kind == "netcdf":
        out = from_netcdf(argv[1], argv[2], int(argv[3]), float(argv[4]), float(argv[5]))
    elif kind == "rotate":
        out = dict(zip(["lat", "lon"], rotate(float(argv[1]), float(argv[2]), float(argv[3]), float(argv[4]))))
    else:
        raise SystemExit(__doc__)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
