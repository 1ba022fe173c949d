"""Write a CAMS global atmospheric composition forecast file (ADS dataset
cams-global-atmospheric-composition-forecasts, variable total_column_ozone,
data_format netcdf) in the layout the ADS's NetCDF conversion gives a
forecast: dimensions forecast_period (hours), forecast_reference_time
(seconds since 1970), latitude (north first), longitude; `valid_time` on
(forecast_period, forecast_reference_time); `gtco3` float32 in "kg m**-2"
with the GRIB-derived attributes (ECMWF parameter 210206, GEMS Total column
ozone). Written with netCDF4-python over Italy on CAMS global's 0.4° grid,
values a smooth closed form of latitude, longitude and lead time around
300 DU (1 DU = 2.1415e-5 kg m-2).

usage: make_cams_global_ozone.py <out.nc> <run yyyy-mm-dd> <lead hours comma-separated>
       make_cams_global_ozone.py read <file.nc> <lat> <lon> <valid unix s>
         prints gtco3 in DU, bilinear in space and linear in time (the reference)
"""
import sys
from datetime import datetime, timezone

import netCDF4
import numpy as np

DU = 2.1415e-5

if sys.argv[1] == 'read':
    path, lat, lon, t = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    with netCDF4.Dataset(path) as ds:
        la, lo = ds['latitude'][:], ds['longitude'][:]
        valid = ds['valid_time'][:, 0]
        g = ds['gtco3'][:, 0, :, :]
        k = int(np.searchsorted(valid, t)) - 1
        k = max(0, min(k, len(valid) - 2))
        wt = (t - valid[k]) / (valid[k + 1] - valid[k])
        i = int(np.searchsorted(-la, -lat)) - 1  # latitude descending
        j = int(np.searchsorted(lo, lon)) - 1
        wy = (la[i] - lat) / (la[i] - la[i + 1])
        wx = (lon - lo[j]) / (lo[j + 1] - lo[j])

        def space(f):
            return (f[i, j] * (1 - wx) + f[i, j + 1] * wx) * (1 - wy) + (f[i + 1, j] * (1 - wx) + f[i + 1, j + 1] * wx) * wy

        print(float(space(g[k]) * (1 - wt) + space(g[k + 1]) * wt) / DU)
    sys.exit(0)

out, run, leads = sys.argv[1], sys.argv[2], [int(h) for h in sys.argv[3].split(',')]
run_s = int(datetime.strptime(run, '%Y-%m-%d').replace(tzinfo=timezone.utc).timestamp())
lat = np.round(48.0 - 0.4 * np.arange(34), 1)  # 48.0 .. 34.8 N
lon = np.round(4.8 + 0.4 * np.arange(40), 1)  # 4.8 .. 20.4 E
with netCDF4.Dataset(out, 'w', format='NETCDF4') as ds:
    ds.GRIB_centre = 'ecmf'
    ds.GRIB_centreDescription = 'European Centre for Medium-Range Weather Forecasts'
    ds.GRIB_subCentre = 0
    ds.Conventions = 'CF-1.7'
    ds.institution = 'European Centre for Medium-Range Weather Forecasts'
    ds.history = 'test file in the layout of the ADS NetCDF conversion (meteopunto tests)'
    ds.createDimension('forecast_period', len(leads))
    ds.createDimension('forecast_reference_time', 1)
    ds.createDimension('latitude', len(lat))
    ds.createDimension('longitude', len(lon))
    fp = ds.createVariable('forecast_period', 'i8', ('forecast_period',))
    fp.long_name, fp.units, fp.standard_name = 'time since forecast_reference_time', 'hours', 'forecast_period'
    fp[:] = leads
    rt = ds.createVariable('forecast_reference_time', 'i8', ('forecast_reference_time',))
    rt.long_name, rt.standard_name, rt.units, rt.calendar = 'initial time of forecast', 'forecast_reference_time', 'seconds since 1970-01-01', 'proleptic_gregorian'
    rt[:] = [run_s]
    vt = ds.createVariable('valid_time', 'i8', ('forecast_period', 'forecast_reference_time'))
    vt.long_name, vt.standard_name, vt.units, vt.calendar = 'time', 'time', 'seconds since 1970-01-01', 'proleptic_gregorian'
    vt[:] = np.array([[run_s + 3600 * h] for h in leads])
    la = ds.createVariable('latitude', 'f8', ('latitude',))
    la.units, la.standard_name, la.long_name, la.stored_direction = 'degrees_north', 'latitude', 'latitude', 'decreasing'
    la[:] = lat
    lo = ds.createVariable('longitude', 'f8', ('longitude',))
    lo.units, lo.standard_name, lo.long_name = 'degrees_east', 'longitude', 'longitude'
    lo[:] = lon
    g = ds.createVariable('gtco3', 'f4', ('forecast_period', 'forecast_reference_time', 'latitude', 'longitude'), fill_value=np.float32(np.nan))
    g.GRIB_paramId = 210206
    g.GRIB_shortName = 'gtco3'
    g.GRIB_units = 'kg m**-2'
    g.GRIB_name = 'GEMS Total column ozone'
    g.long_name = 'GEMS Total column ozone'
    g.units = 'kg m**-2'
    g.standard_name = 'atmosphere_mass_content_of_ozone'
    g.coordinates = 'valid_time'
    LAT, LON = np.meshgrid(lat, lon, indexing='ij')
    for k, h in enumerate(leads):
        g[k, 0] = ((290 + 3 * (LAT - 40) + 0.8 * (LON - 10) + 0.2 * h) * DU).astype('f4')
