"""Write CAMS European regional forecast files (ADS dataset
cams-europe-air-quality-forecasts, model ENSEMBLE, level 0) in the layout of
the real files of ../shared/data/cams-europe-pollen-jaen, with
netCDF4-python: NETCDF3_CLASSIC; dimensions longitude, latitude (north
first), level (1, 0 m), time (unlimited); time float32 in the bare unit
"hours" with the run date only in its long_name ("FORECAST time from
YYYYMMDD"); one float32 `<species>_conc` per species on (time, level,
latitude, longitude) with _FillValue -999, `species`, `units`, `value` and
`standard_name` as the real files write them; global attributes as theirs.
The real files lie around Jaén (Spain); these lie over north Italy on CAMS's
0.1° grid (longitudes 0..360, as the real files), for a run of the current
day. Two files, as the data store's netcdf_zip delivers: pollutants and
pollen. Values are smooth closed forms of latitude, longitude and hour.

usage: make_cams_europe.py <dir> <run yyyymmdd> <hours>
Prints JSON {"files": [pollutants, pollen]}.
"""
import json
import os
import sys

import netCDF4
import numpy as np

out, run, hours = sys.argv[1], sys.argv[2], int(sys.argv[3])
lat = np.round(46.45 - 0.1 * np.arange(36), 2).astype('f4')  # 46.45 .. 42.95 N
lon = np.round(7.05 + 0.1 * np.arange(71), 2).astype('f4')  # 7.05 .. 14.05 E
LAT, LON = np.meshgrid(lat, lon, indexing='ij')
POLLUTANTS = [
    ('pm2p5', 'PM2.5 Aerosol', 'µg/m3', 'mass_concentration_of_pm2p5_ambient_aerosol_in_air', 12.0),
    ('pm10', 'PM10 Aerosol', 'µg/m3', 'mass_concentration_of_pm10_ambient_aerosol_in_air', 20.0),
    ('no2', 'Nitrogen Dioxide', 'µg/m3', 'mass_concentration_of_nitrogen_dioxide_in_air', 18.0),
    ('o3', 'Ozone', 'µg/m3', 'mass_concentration_of_ozone_in_air', 55.0),
    ('so2', 'Sulphur Dioxide', 'µg/m3', 'mass_concentration_of_sulfur_dioxide_in_air', 3.0),
]
POLLEN = [
    ('gpg', 'Grass Pollen Grain', 'grains/m3', 'Not Defined', 4.0),
    ('opg', 'Olive Pollen Grain', 'grains/m3', 'Not Defined', 2.0),
]


def write(path, kind, title, species):
    with netCDF4.Dataset(path, 'w', format='NETCDF3_CLASSIC') as d:
        d.title = title
        d.institution = 'Data produced by Meteo France'
        d.source = 'Data from ENSEMBLE model'
        d.history = 'Model ENSEMBLE FORECAST'
        d.FORECAST = f'Europe, {run}+[0H_{hours - 1}H]'
        d.summary = f'ENSEMBLE model hourly FORECAST at the Surface from {run}+[0H_{hours - 1}H] on Europe'
        d.project = 'MACC-RAQ (http://macc-raq.gmes-atmosphere.eu)'
        d.createDimension('longitude', len(lon))
        d.createDimension('latitude', len(lat))
        d.createDimension('level', 1)
        d.createDimension('time', None)
        for name, values, units, long_name in (('longitude', lon, 'degrees_east', 'longitude'), ('latitude', lat, 'degrees_north', 'latitude'), ('level', np.zeros(1, 'f4'), 'm', 'level')):
            v = d.createVariable(name, 'f4', (name,))
            v.long_name = long_name
            v.units = units
            v[:] = values
        t = d.createVariable('time', 'f4', ('time',))
        t.long_name = f'FORECAST time from {run}'
        t.units = 'hours'
        t[:] = np.arange(hours, dtype='f4')
        for k, (short, name, units, std, base) in enumerate(species):
            v = d.createVariable(f'{short}_conc', 'f4', ('time', 'level', 'latitude', 'longitude'), fill_value=np.float32(-999.0))
            v.species = name
            v.units = units
            v.value = 'hourly values'
            v.standard_name = std
            h = np.arange(hours, dtype='f4')[:, None, None, None]
            v[:] = (base * (1 + 0.04 * (LAT - 44) + 0.03 * (LON - 10)) * (1 + 0.2 * np.sin(h / 4.0 + k)))[:, :, :].reshape(hours, 1, len(lat), len(lon)).astype('f4')


os.makedirs(out, exist_ok=True)
files = [os.path.join(out, f'cams-europe-{run}-pollutants.nc'), os.path.join(out, f'cams-europe-{run}-pollen.nc')]
write(files[0], 'pollutants', 'PM25/PM10/NO2/O3/SO2 Air Pollutant FORECAST at the Surface', POLLUTANTS)
write(files[1], 'pollen', 'GRASSPOLLEN/OLIVEPOLLEN Air Pollutant FORECAST at the Surface', POLLEN)
print(json.dumps({'files': files}))
