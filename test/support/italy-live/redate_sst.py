"""Copy the real MED SST L4 file of ../shared/data (2025-07-09) and give the
copy another day, with netCDF4-python: only `time` (seconds since
1981-01-01, the file's own unit) changes, the field stays the real one; the
day is the one the data store's NRT file name carries.

usage: redate_sst.py <real file> <out.nc> <day yyyy-mm-dd>
"""
import datetime as dt
import shutil
import sys

import netCDF4

src, out, day = sys.argv[1:]
shutil.copyfile(src, out)
with netCDF4.Dataset(out, 'r+') as d:
    t = d['time']
    when = dt.datetime.strptime(day, '%Y-%m-%d').replace(tzinfo=dt.timezone.utc)
    t[:] = netCDF4.date2num([when.replace(tzinfo=None)], t.units, calendar=getattr(t, 'calendar', 'standard'))
