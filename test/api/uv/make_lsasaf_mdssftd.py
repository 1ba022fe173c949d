"""Write EUMETSAT LSA SAF MSG MDSSFTD files (Total and Diffuse Downward
Surface Shortwave Flux, LSA-207) in the product's published NetCDF layout,
with netCDF4-python (an independent writer: no real file is available
offline), one file per 15-minute slot, named as the data server names them:

  NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_<yyyymmddHHMM>.nc

Layout as the data server's files show to public clients (Open-Meteo's
downloader, netCDF4/xarray scripts): dimensions time (1), lat (3201), lon
(3201); the MSG disk on a regular 0.05 deg grid, lat 80 .. -80 (north first),
lon -80 .. 80; DSSF_TOT and FRACTION_DIFFUSE int16 packed with scale_factor,
add_offset and _FillValue; quality_flag; time in CF units. Only the
variables a reader needs are written; the values are fill outside the box
given.

Inside the box, DSSF_TOT = k * GHI_clear, with GHI_clear the Haurwitz (1945)
clear-sky irradiance when SEVIRI scanned the pixel and k the clear-sky
index asked for, so the index the ingest should recover is k by
construction. The solar zenith here is the Astronomical Almanac's
approximate solar coordinates (USNO, good to about 1 arcmin over
1950-2050: the flux is the flux of the Sun where it is; Spencer's Fourier
series, used here before, errs by about 0.2 deg in November, which at 6 deg
elevation moves the clear-sky flux by 5 % and k by 0.03), the scan time the
slot plus 12 min x the pixel's place between the disk's southern and
northern edges as the satellite sees them (spherical Earth, 42,164 km orbit
radius, +-8.92 deg scan), both written independently of geo/.
Prints JSON {"files": [...], "k": k}.

usage: make_lsasaf_mdssftd.py <dir> <first slot unix s> <slots> <k> <lat0> <lat1> <lon0> <lon1>
"""
import datetime as dt
import json
import math
import os
import sys

import netCDF4
import numpy as np

out, start, slots, k, lat0, lat1, lon0, lon1 = sys.argv[1:]
start, slots, k = int(start), int(slots), float(k)
lat0, lat1, lon0, lon1 = map(float, (lat0, lat1, lon0, lon1))
lats = np.round(80 - 0.05 * np.arange(3201), 2)
lons = np.round(-80 + 0.05 * np.arange(3201), 2)
jj = np.where((lats >= lat0) & (lats <= lat1))[0]
ii = np.where((lons >= lon0) & (lons <= lon1))[0]
LA, LO = np.meshgrid(lats[jj], lons[ii], indexing="ij")


def cos_zenith(t, lat, lon):
    """Astronomical Almanac / USNO approximate solar coordinates, degrees in, cos z out.

    D days from J2000.0 (UT for TT: 69 s move the Sun by < 0.001 deg); g mean anomaly, q mean longitude,
    L ecliptic longitude, e obliquity; right ascension and declination from them; hour angle from GMST.
    """
    d = (t - dt.datetime(2000, 1, 1, 12, tzinfo=dt.timezone.utc)).total_seconds() / 86400.0
    g = math.radians((357.529 + 0.98560028 * d) % 360)
    q = (280.459 + 0.98564736 * d) % 360
    ecl = math.radians(q + 1.915 * math.sin(g) + 0.020 * math.sin(2 * g))
    e = math.radians(23.439 - 0.00000036 * d)
    ra = math.degrees(math.atan2(math.cos(e) * math.sin(ecl), math.cos(ecl)))
    decl = math.asin(math.sin(e) * math.sin(ecl))
    gmst = (18.697374558 + 24.06570982441908 * d) % 24
    ha = np.radians(gmst * 15 + lon - ra)
    la = np.radians(lat)
    return np.sin(la) * math.sin(decl) + np.cos(la) * math.cos(decl) * np.cos(ha)


def scan_offset_s(lat, lon):
    # Elevation of the pixel seen from the satellite above 0 E (sphere of 6371 km), as a share of the +-8.92 deg disk.
    R, H, YMAX = 6371.0, 42164.0, math.radians(8.92)
    la, lo = np.radians(lat), np.radians(lon)
    x = H - R * np.cos(la) * np.cos(lo)
    y = R * np.cos(la) * np.sin(lo)
    e = np.arctan(R * np.sin(la) / np.hypot(x, y))
    return 720.0 * (e + YMAX) / (2 * YMAX)


files = []
for s in range(slots):
    t = dt.datetime.fromtimestamp(start + 900 * s, dt.timezone.utc)
    name = f"NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_{t:%Y%m%d%H%M}.nc"
    path = os.path.join(out, name)
    offsets = scan_offset_s(LA, LO)
    mu = np.empty_like(LA)
    for idx in np.ndindex(LA.shape):
        seen = t + dt.timedelta(seconds=float(offsets[idx]))
        mu[idx] = cos_zenith(seen, LA[idx], LO[idx])
    ghi_clear = np.where(mu > 0, 1098 * mu * np.exp(-0.059 / np.maximum(mu, 1e-6)), 0.0)
    with netCDF4.Dataset(path, "w", format="NETCDF4") as d:
        d.Conventions = "CF-1.6"
        d.institution = "IPMA (LSA SAF) -- test file in the product layout"
        d.product = "MDSSFTD"
        d.createDimension("time", 1)
        d.createDimension("lat", len(lats))
        d.createDimension("lon", len(lons))
        tv = d.createVariable("time", "f8", ("time",))
        tv.units = "seconds since 1970-01-01 00:00:00"
        tv.standard_name = "time"
        tv.calendar = "standard"
        tv[:] = [start + 900 * s]
        la = d.createVariable("lat", "f4", ("lat",))
        la.units = "degrees_north"
        la.standard_name = "latitude"
        la[:] = lats
        lo = d.createVariable("lon", "f4", ("lon",))
        lo.units = "degrees_east"
        lo.standard_name = "longitude"
        lo[:] = lons
        v = d.createVariable("DSSF_TOT", "i2", ("time", "lat", "lon"), fill_value=np.int16(-1), zlib=True)
        v.set_auto_maskandscale(False)
        v.long_name = "Total Downward Surface Shortwave Flux"
        v.standard_name = "surface_downwelling_shortwave_flux_in_air"
        v.units = "W m-2"
        v.scale_factor = np.float32(0.1)
        v.add_offset = np.float32(0.0)
        packed = np.full((1, len(lats), len(lons)), -1, dtype="i2")
        packed[0, jj[0]:jj[-1] + 1, ii[0]:ii[-1] + 1] = np.round(k * ghi_clear / 0.1).astype("i2")
        v[:] = packed
        f = d.createVariable("FRACTION_DIFFUSE", "i2", ("time", "lat", "lon"), fill_value=np.int16(-1), zlib=True)
        f.set_auto_maskandscale(False)
        f.long_name = "Fraction of diffuse flux"
        f.units = "1"
        f.scale_factor = np.float32(0.001)
        f.add_offset = np.float32(0.0)
        f[:] = np.full((1, len(lats), len(lons)), -1, dtype="i2")
        q = d.createVariable("quality_flag", "i2", ("time", "lat", "lon"), zlib=True)
        q.long_name = "quality flag"
        q[:] = np.zeros((1, len(lats), len(lons)), dtype="i2")
    files.append(path)
print(json.dumps({"files": files, "k": k}))
