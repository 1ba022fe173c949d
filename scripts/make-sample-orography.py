#!/usr/bin/python3
"""
Makes the real terrain of the sample dataset (ingest/sample/orography/),
once, with GDAL, from two ARPA-SIMC files (ma_utils, GPL-2.0; the test
data's icon2i-orography and dem-north-italy-1km folders), each on its own
grid, heights rounded to whole metres as int16, DEFLATE with horizontal
differencing, no-data -32768:

- icon2i-orography.tif from I2ITA2KM_orog_20241009.grib2, the ICON-2I model
  orography (0.025 x 0.02 deg, 485 x 596 cells, 35.4..47.3 N, 6.5..18.6 E).
  No-data is the sea: every cell within 1 m of sea level. ICON's open sea
  holds one value (-0.0223 m), but its smoothed orography spreads up to a
  few decimetres over the coastal sea (median 0.29 m on the cells 3-11 km
  off Natural Earth's Italian coast), which would otherwise draw the coast
  1-2 cells out to sea; land below sea level (the Po delta, to -5 m) stays.
- nita1k-dem.tif from nita1k_orog.grb, the 1 km DEM of northern Italy
  (0.014 x 0.01 deg, 551 x 381 cells, 43.4..47.2 N, 6.4..14.1 E); its
  missing value 9999 becomes no-data.

Usage: scripts/make-sample-orography.py [<shared data dir>]  (default ../shared/data)
"""
import os
import sys
import numpy as np
from osgeo import gdal

gdal.UseExceptions()
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'data')
out_dir = os.path.join(os.path.dirname(__file__), '..', 'ingest', 'sample', 'orography')


def write(src_path, out_name, missing, source):
    src = gdal.Open(src_path)
    h = src.GetRasterBand(1).ReadAsArray().astype(np.float64)
    gap = missing(h)
    out = np.where(gap, -32768, np.round(h)).astype(np.int16)
    path = os.path.join(out_dir, out_name)
    dst = gdal.GetDriverByName('GTiff').Create(path, src.RasterXSize, src.RasterYSize, 1, gdal.GDT_Int16,
                                                options=['COMPRESS=DEFLATE', 'PREDICTOR=2', 'ZLEVEL=9'])
    dst.SetGeoTransform(src.GetGeoTransform())
    dst.SetProjection(src.GetProjection())
    band = dst.GetRasterBand(1)
    band.SetNoDataValue(-32768)
    band.WriteArray(out)
    dst.SetMetadataItem('SOURCE', source)
    dst.FlushCache()
    print(f'{path}: {src.RasterXSize} x {src.RasterYSize}, {int(gap.sum())} no-data cells, {int(out[~gap].min())}..{int(out[~gap].max())} m, {os.path.getsize(path)} bytes')


write(os.path.join(data, 'icon2i-orography', 'I2ITA2KM_orog_20241009.grib2'), 'icon2i-orography.tif',
      lambda h: np.abs(h) <= 1.0, 'ICON-2I model orography hsurf, I2ITA2KM_orog_20241009.grib2, ARPA-SIMC ma_utils (GPL-2.0)')
write(os.path.join(data, 'dem-north-italy-1km', 'nita1k_orog.grb'), 'nita1k-dem.tif',
      lambda h: h >= 9999, '1 km DEM of northern Italy, nita1k_orog.grb, ARPA-SIMC ma_utils (GPL-2.0)')
