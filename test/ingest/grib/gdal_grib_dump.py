"""Independent GRIB decode for the reader's tests: GDAL's GRIB driver
(degrib/g2clib code base, not ecCodes).

Usage: /usr/bin/python3 gdal_grib_dump.py <grib file> <output file>

The file is split into messages by their own length fields (GRIB1: 3 bytes
at offset 4; GRIB2: 8 bytes at offset 8), each message is opened alone
(GDAL gives one geotransform per dataset), and for each message this prints
a JSON line {"size": [nx, ny], "geotransform": [...], "rotated": bool, "metadata":
{...}, "nodata": ..., "samples": [[col, row, lat, lon], ...]} followed by nx*ny little-endian float64 values in
GDAL's raster order (row 0 = north), NaN where GDAL reports nodata.
Output goes to a file, not stdout: degrib prints diagnostics on stdout.
"""
import json, os, struct, sys, tempfile
import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()
gdal.SetConfigOption("GRIB_NORMALIZE_UNITS", "NO")

# Pixel positions (fractions of the raster) whose geographic lat/lon GDAL/PROJ
# computes, so the tests can check geolocation point by point.
FRACTIONS = [0.0, 0.13, 0.29, 0.5, 0.71, 0.87, 1.0]


def samples(ds):
    """[col, row, lat, lon] at pixel centres, through GDAL's own CRS (rotated pole included)."""
    gt = ds.GetGeoTransform()
    srs = ds.GetSpatialRef()
    # A rotated grid is a PROJ DerivedGeographicCRS: transform to its base CRS.
    pj = json.loads(srs.ExportToPROJJSON())
    geo = osr.SpatialReference()
    geo.SetFromUserInput(json.dumps(pj.get("base_crs", pj)))
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    geo.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    ct = osr.CoordinateTransformation(srs, geo)
    res = []
    for fy in FRACTIONS:
        for fx in FRACTIONS:
            col = int(round(fx * (ds.RasterXSize - 1)))
            row = int(round(fy * (ds.RasterYSize - 1)))
            x = gt[0] + (col + 0.5) * gt[1] + (row + 0.5) * gt[2]
            y = gt[3] + (col + 0.5) * gt[4] + (row + 0.5) * gt[5]
            lon, lat, _ = ct.TransformPoint(x, y)
            res.append([col, row, lat, lon])
    return res


def messages(data):
    pos = 0
    while True:
        start = data.find(b"GRIB", pos)
        if start < 0:
            return
        edition = data[start + 7]
        if edition == 1:
            length = int.from_bytes(data[start + 4:start + 7], "big")
        elif edition == 2:
            length = struct.unpack(">Q", data[start + 8:start + 16])[0]
        else:
            pos = start + 4
            continue
        yield data[start:start + length]
        pos = start + length


out = open(sys.argv[2], "wb")
with open(sys.argv[1], "rb") as f:
    data = f.read()
with tempfile.TemporaryDirectory() as tmp:
    for k, msg in enumerate(messages(data)):
        path = os.path.join(tmp, "m%d.grb" % k)
        with open(path, "wb") as g:
            g.write(msg)
        ds = gdal.Open(path)
        band = ds.GetRasterBand(1)
        arr = band.ReadAsArray().astype("<f8")
        nodata = band.GetNoDataValue()
        if nodata is not None:
            arr[arr == nodata] = np.nan
        head = {
            "size": [ds.RasterXSize, ds.RasterYSize],
            "geotransform": list(ds.GetGeoTransform()),
            "rotated": "Pole rotation" in ds.GetProjection(),
            "metadata": band.GetMetadata(),
            "nodata": nodata,
            "samples": samples(ds),
        }
        out.write(json.dumps(head).encode() + b"\n")
        out.write(arr.tobytes())
        ds = None
out.close()
