#!/usr/bin/python3
"""
Makes ingest/sample/orography/icon2i-orography.tif, the real terrain of the
sample dataset, once, with GDAL, from the ICON-2I model orography
I2ITA2KM_orog_20241009.grib2 (ARPA-SIMC ma_utils, GPL-2.0; the test data's
icon2i-orography folder): the same 0.025° x 0.02° grid (485 x 596 cells,
35.4..47.3 N, 6.5..18.6 E), heights rounded to whole metres as int16, the
sea as no-data -32768, DEFLATE with horizontal differencing. Sea is
every cell within 1 m of sea level: ICON's open sea holds one value
(-0.0223 m), but its smoothed orography spreads up to a few decimetres over
the coastal sea (median 0.29 m on the cells 3-11 km off Natural Earth's
Italian coast), which would otherwise draw the coast 1-2 cells out to sea;
land below sea level (the Po delta, to -5 m) stays land. Usage: scripts/make-sample-orography.py <grib2> <out.tif>
"""
import sys
import numpy as np
from osgeo import gdal

gdal.UseExceptions()
src_path, out_path = sys.argv[1], sys.argv[2]
src = gdal.Open(src_path)
h = src.GetRasterBand(1).ReadAsArray().astype(np.float64)
sea = np.abs(h) <= 1.0
out = np.where(sea, -32768, np.round(h)).astype(np.int16)
drv = gdal.GetDriverByName('GTiff')
dst = drv.Create(out_path, src.RasterXSize, src.RasterYSize, 1, gdal.GDT_Int16,
                 options=['COMPRESS=DEFLATE', 'PREDICTOR=2', 'ZLEVEL=9', 'TILED=NO'])
dst.SetGeoTransform(src.GetGeoTransform())
dst.SetProjection(src.GetProjection())
band = dst.GetRasterBand(1)
band.SetNoDataValue(-32768)
band.WriteArray(out)
dst.SetMetadataItem('SOURCE', 'ICON-2I model orography hsurf, I2ITA2KM_orog_20241009.grib2, ARPA-SIMC ma_utils (GPL-2.0)')
dst.FlushCache()
print(f'{out_path}: {src.RasterXSize} x {src.RasterYSize}, {int(sea.sum())} sea cells, {int(out[~sea].min())}..{int(out[~sea].max())} m')
