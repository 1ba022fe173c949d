/**
 * The Python program that drives ecCodes (Debian python3-eccodes) for the GRIB
 * reader. It is kept as a string, run with `python3 -c`, so that it survives
 * the TypeScript build unchanged (tsc copies no .py files).
 *
 * Protocol on stdout, one frame per GRIB message:
 *   `{"meta": {...}, "count": n}\n` followed by n little-endian float32 values
 *   in the message's STORAGE order (scanning mode is resolved in TypeScript,
 *   see scanning.ts), missing points (bitmap, complex-packing missing value
 *   management) as NaN;
 * then `{"end": true, "messages": k}\n`. A message ecCodes cannot decode ends
 * the stream with `{"error": "...", "message": i}\n` and exit code 2; a
 * missing eccodes/numpy module exits with code 3.
 *
 * Why Python and not grib_get_data: measured on a 1.5 M-point GRIB2 message,
 * this channel takes 0.21 s (simple) / 0.25 s (CCSDS) including the 0.2 s
 * interpreter start, against 0.71 s for grib_get_data's 45 MB of text before
 * any parsing (see the README section of the GRIB reader).
 */
export const BRIDGE_EXIT_ECCODES_MISSING = 3;
export const BRIDGE_EXIT_DECODE_ERROR = 2;

export const BRIDGE_SCRIPT = String.raw`
import sys, json
try:
    import numpy as np
    import eccodes
except Exception as e:
    sys.stderr.write("eccodes python module unavailable: %s\n" % e)
    sys.exit(${BRIDGE_EXIT_ECCODES_MISSING})

# A missing-value sentinel no float32-ranged packed value can take: ecCodes
# writes it wherever the bitmap (or complex packing's missing value
# management) marks a point missing; it becomes NaN below.
SENTINEL = -1.0e300

KEYS = [
    ("edition", "i"), ("shortName", "s"), ("paramId", "i"), ("name", "s"),
    ("units", "s"), ("cfName", "s"), ("typeOfLevel", "s"), ("level", "d"),
    ("discipline", "i"), ("parameterCategory", "i"), ("parameterNumber", "i"),
    ("table2Version", "i"), ("indicatorOfParameter", "i"), ("centre", "s"),
    ("gridType", "s"), ("packingType", "s"), ("Ni", "i"), ("Nj", "i"),
    ("numberOfDataPoints", "i"), ("numberOfMissing", "i"), ("bitmapPresent", "i"),
    ("scanningMode", "i"), ("iScansNegatively", "i"), ("jScansPositively", "i"),
    ("jPointsAreConsecutive", "i"), ("alternativeRowScanning", "i"),
    ("latitudeOfFirstGridPointInDegrees", "d"), ("longitudeOfFirstGridPointInDegrees", "d"),
    ("latitudeOfLastGridPointInDegrees", "d"), ("longitudeOfLastGridPointInDegrees", "d"),
    ("iDirectionIncrementInDegrees", "d"), ("jDirectionIncrementInDegrees", "d"),
    ("latitudeOfSouthernPoleInDegrees", "d"), ("longitudeOfSouthernPoleInDegrees", "d"),
    ("angleOfRotationInDegrees", "d"), ("angleOfRotation", "d"),
    ("dataDate", "i"), ("dataTime", "i"), ("second", "i"),
    ("stepType", "s"), ("stepUnits", "i"), ("startStep", "i"), ("endStep", "i"),
]

def get(h, key, kind):
    try:
        if not eccodes.codes_is_defined(h, key):
            return None
        try:
            if eccodes.codes_is_missing(h, key):
                return None
        except Exception:
            pass
        if kind == "s":
            return eccodes.codes_get_string(h, key)
        if kind == "i":
            return int(eccodes.codes_get_long(h, key))
        return float(eccodes.codes_get_double(h, key))
    except Exception:
        return None

out = sys.stdout.buffer
index = 0
failing = 1
try:
    with open(sys.argv[1], "rb") as f:
        while True:
            failing = index + 1
            h = eccodes.codes_grib_new_from_file(f)
            if h is None:
                break
            index += 1
            try:
                meta = {k: get(h, k, t) for k, t in KEYS}
                eccodes.codes_set_double(h, "missingValue", SENTINEL)
                v = eccodes.codes_get_values(h)
                v[v == SENTINEL] = np.nan
                v32 = v.astype("<f4")
            finally:
                eccodes.codes_release(h)
            frame = json.dumps({"meta": meta, "count": int(v32.size)}, allow_nan=False)
            out.write(frame.encode("utf-8") + b"\n")
            out.write(v32.tobytes())
except Exception as e:
    out.write(json.dumps({"error": "%s: %s" % (type(e).__name__, e), "message": failing}).encode("utf-8") + b"\n")
    out.flush()
    sys.exit(${BRIDGE_EXIT_DECODE_ERROR})
out.write(json.dumps({"end": True, "messages": index}).encode("utf-8") + b"\n")
out.flush()
`;
