"""Write a CM SAF SARAH-layout effective cloud albedo file (NetCDF4/CF, variable CAL,
time in seconds since 1983-01-01, regular 0.05 deg lat/lon) with netCDF4-python,
an independent writer: no real SARAH file is available offline.

usage: make_sarah_cal.py <out.nc> <start unix s> <slots> <cal> <lat0> <lat1> <lon0> <lon1>
"""
import sys
import numpy as np
import netCDF4

out, start, slots, cal, lat0, lat1, lon0, lon1 = sys.argv[1:]
start, slots, cal = float(start), int(slots), float(cal)
lats = np.arange(float(lat0), float(lat1) + 1e-9, 0.05)
lons = np.arange(float(lon0), float(lon1) + 1e-9, 0.05)
epoch = 410227200.0  # 1983-01-01T00:00Z in Unix seconds
with netCDF4.Dataset(out, 'w', format='NETCDF4') as d:
    d.Conventions = 'CF-1.6'
    d.title = 'CM SAF SARAH effective cloud albedo (test file in the product layout)'
    d.createDimension('time', None)
    d.createDimension('lat', len(lats))
    d.createDimension('lon', len(lons))
    t = d.createVariable('time', 'f8', ('time',))
    t.units = 'seconds since 1983-01-01 00:00:00'
    t.standard_name = 'time'
    t.calendar = 'standard'
    t[:] = [start - epoch + 1800 * k for k in range(slots)]
    la = d.createVariable('lat', 'f4', ('lat',))
    la.units = 'degrees_north'
    la.standard_name = 'latitude'
    la[:] = lats
    lo = d.createVariable('lon', 'f4', ('lon',))
    lo.units = 'degrees_east'
    lo.standard_name = 'longitude'
    lo[:] = lons
    v = d.createVariable('CAL', 'f4', ('time', 'lat', 'lon'), fill_value=-999.0, zlib=True)
    v.units = '1'
    v.long_name = 'effective cloud albedo'
    v[:] = np.full((slots, len(lats), len(lons)), cal, dtype='f4')
