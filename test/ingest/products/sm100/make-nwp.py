"""An nwp test file on the real ICON-2I grid, written with netCDF4-python
(an independent writer): the model orography of
../shared/data/icon2i-orography (read with GDAL) cropped around San Marino,
and 2 m temperature that is exactly linear in that orography at each step,
T = T0(step) + gradient(step) · z, so that the fitted gradient is known.

usage: /usr/bin/python3 make-nwp.py <icon2i orography grib2> <out.nc> <start ISO> <gradient K/km>...
"""
import sys
from datetime import datetime

import netCDF4
import numpy as np
from osgeo import gdal

gdal.UseExceptions()
src, out, start, *gradients = sys.argv[1:]
d = gdal.Open(src)
x0, dx, _, ytop, _, dy = d.GetGeoTransform()
z = d.GetRasterBand(1).ReadAsArray().astype('f8')
ny, nx = z.shape
lons = x0 + dx * (np.arange(nx) + 0.5)
lats = ytop + dy * (np.arange(ny) + 0.5)
# Crop: 43.3–44.6 N, 11.6–13.3 E (San Marino, the Adriatic coast, the Apennine ridge); south to north.
jj = np.where((lats >= 43.3) & (lats <= 44.6))[0]
ii = np.where((lons >= 11.6) & (lons <= 13.3))[0]
z = z[jj][:, ii][::-1]
lats = lats[jj][::-1]
lons = lons[ii]

nc = netCDF4.Dataset(out, 'w', format='NETCDF4')
nc.createDimension('time', len(gradients))
nc.createDimension('lat', len(lats))
nc.createDimension('lon', len(lons))
t0 = datetime.fromisoformat(start.replace('Z', '+00:00')).replace(tzinfo=None)
tv = nc.createVariable('time', 'f8', ('time',))
tv.units = f'hours since {t0:%Y-%m-%d %H:%M:%S}'
tv.standard_name = 'time'
tv[:] = np.arange(len(gradients))
la = nc.createVariable('lat', 'f8', ('lat',))
la.units = 'degrees_north'
la.standard_name = 'latitude'
la[:] = lats
lo = nc.createVariable('lon', 'f8', ('lon',))
lo.units = 'degrees_east'
lo.standard_name = 'longitude'
lo[:] = lons
h = nc.createVariable('HSURF', 'f4', ('lat', 'lon'))
h.units = 'm'
h.standard_name = 'surface_altitude'
h[:] = z
t = nc.createVariable('t2m', 'f4', ('time', 'lat', 'lon'))
t.units = 'K'
t.standard_name = 'air_temperature'
td = nc.createVariable('d2m', 'f4', ('time', 'lat', 'lon'))
td.units = 'K'
td.standard_name = 'dew_point_temperature'
for k, g in enumerate(gradients):
    temp = 285.15 - 0.5 * k + float(g) / 1000.0 * z
    t[k] = temp
    td[k] = temp - 4.0
nc.close()
