"""Reference 100 m cell elevations for the sm100 tests, from the DEM read by
GDAL (not by the code under test): each cell's elevation is the DEM
interpolated bilinearly at its centre (the documented method for a DEM
coarser than the cell: one sub-sample), and a point's value is the bilinear
interpolation of the four cells around it on the documented grid
(x0 12.355 E, y0 43.87 N, 0.00125 x 0.0009 degrees).

usage: /usr/bin/python3 cell-elevation.py <dem> '[[lat, lon], ...]'  ->  JSON list of metres
"""
import json
import math
import sys

from osgeo import gdal

gdal.UseExceptions()
path, points = sys.argv[1], json.loads(sys.argv[2])
d = gdal.Open(path)
gx0, gdx, _, gy0, _, gdy = d.GetGeoTransform()
band = d.GetRasterBand(1)
nodata = band.GetNoDataValue()
a = band.ReadAsArray().astype('f8')


def dem(lat, lon):
    fx = (lon - gx0) / gdx - 0.5
    fy = (lat - gy0) / gdy - 0.5
    i0, j0 = math.floor(fx), math.floor(fy)
    s = w = 0.0
    for di in (0, 1):
        for dj in (0, 1):
            v = a[j0 + dj, i0 + di]
            if nodata is not None and v == nodata:
                continue
            wt = (fx - i0 if di else 1 - (fx - i0)) * (fy - j0 if dj else 1 - (fy - j0))
            s += wt * v
            w += wt
    return s / w


X0, Y0, DX, DY = 12.355, 43.87, 0.00125, 0.0009
out = []
for lat, lon in points:
    fx, fy = (lon - X0) / DX, (lat - Y0) / DY
    i0, j0 = math.floor(fx), math.floor(fy)
    ax, ay = fx - i0, fy - j0
    z = 0.0
    for di in (0, 1):
        for dj in (0, 1):
            z += (ax if di else 1 - ax) * (ay if dj else 1 - ay) * dem(Y0 + (j0 + dj) * DY, X0 + (i0 + di) * DX)
    out.append(z)
print(json.dumps(out))
