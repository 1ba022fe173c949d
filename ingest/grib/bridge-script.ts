/**
 * The Python program that drives ecCodes for the GRIB reader. It calls the
 * ecCodes C library (libeccodes0) through the standard library's ctypes:
 * no numpy, no python3-eccodes. It is kept as a string and run with
 * `python3 -c`, so it survives the TypeScript build unchanged.
 *
 * Protocol on stdout, one frame per GRIB message:
 *   `{"meta": {...}, "count": n}\n` followed by n native-endian float64
 *   values in the message's STORAGE order (scanning mode is resolved in
 *   TypeScript, see scanning.ts); missing points (bitmap, complex-packing
 *   missing value management) carry MISSING_SENTINEL;
 * then `{"end": true, "messages": k}\n`. A message ecCodes cannot decode ends
 * the stream with `{"error": "...", "message": i}\n` and exit code 2; a
 * missing ecCodes library exits with code 3.
 *
 * Why this channel (measured on a 1.5 M-point GRIB2 message, see docs/readers.md
 * section of the GRIB reader): binary doubles straight from
 * codes_get_double_array, against 0.71 s for grib_get_data's 45 MB of text
 * before any parsing, and 0.2 s of numpy import for python3-eccodes.
 */
export const BRIDGE_EXIT_ECCODES_MISSING = 3;
export const BRIDGE_EXIT_DECODE_ERROR = 2;

/**
 * ecCodes writes this value wherever the bitmap (or complex packing's missing
 * value management) marks a point missing; no float32-ranged packed value can
 * take it. It becomes NaN in TypeScript.
 */
export const MISSING_SENTINEL = -1.0e300;

export const BRIDGE_SCRIPT = String.raw`
import sys, os, json, ctypes, ctypes.util
from ctypes import c_void_p, c_char_p, c_int, c_long, c_double, c_size_t, POINTER, byref

libpath = os.environ.get("METEOPUNTO_ECCODES_LIB") or ctypes.util.find_library("eccodes") or "libeccodes.so.0"
try:
    lib = ctypes.CDLL(libpath)
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
except OSError as e:
    sys.stderr.write("cannot load the ecCodes C library (%s): %s\n" % (libpath, e))
    sys.exit(${BRIDGE_EXIT_ECCODES_MISSING})

def sig(fn, res, *args):
    fn.restype = res
    fn.argtypes = list(args)

sig(libc.fopen, c_void_p, c_char_p, c_char_p)
sig(libc.fclose, c_int, c_void_p)
sig(lib.codes_handle_new_from_file, c_void_p, c_void_p, c_void_p, c_int, POINTER(c_int))
sig(lib.codes_handle_delete, c_int, c_void_p)
sig(lib.codes_get_error_message, c_char_p, c_int)
sig(lib.codes_is_defined, c_int, c_void_p, c_char_p)
sig(lib.codes_is_missing, c_int, c_void_p, c_char_p, POINTER(c_int))
sig(lib.codes_get_long, c_int, c_void_p, c_char_p, POINTER(c_long))
sig(lib.codes_get_double, c_int, c_void_p, c_char_p, POINTER(c_double))
sig(lib.codes_get_string, c_int, c_void_p, c_char_p, c_char_p, POINTER(c_size_t))
sig(lib.codes_get_size, c_int, c_void_p, c_char_p, POINTER(c_size_t))
sig(lib.codes_get_double_array, c_int, c_void_p, c_char_p, POINTER(c_double), POINTER(c_size_t))
sig(lib.codes_set_double, c_int, c_void_p, c_char_p, c_double)

PRODUCT_GRIB = 1  # eccodes.h ProductKind
SENTINEL = ${MISSING_SENTINEL}

class CodesError(Exception):
    pass

def check(err, what):
    if err != 0:
        raise CodesError("%s: %s" % (what, lib.codes_get_error_message(err).decode()))

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
    ("angleOfRotationInDegrees", "d"), ("angleOfRotation", "d"), ("uvRelativeToGrid", "i"),
    ("dataDate", "i"), ("dataTime", "i"), ("second", "i"),
    ("stepType", "s"), ("stepUnits", "i"), ("startStep", "i"), ("endStep", "i"),
    ("typeOfFirstFixedSurface", "i"), ("scaleFactorOfFirstFixedSurface", "i"), ("scaledValueOfFirstFixedSurface", "i"),
    ("typeOfSecondFixedSurface", "i"), ("scaleFactorOfSecondFixedSurface", "i"), ("scaledValueOfSecondFixedSurface", "i"),
]

def get(h, key, kind):
    k = key.encode()
    if not lib.codes_is_defined(h, k):
        return None
    e = c_int(0)
    if lib.codes_is_missing(h, k, byref(e)) == 1 and e.value == 0:
        return None
    if kind == "s":
        buf = ctypes.create_string_buffer(1024)
        n = c_size_t(1024)
        return buf.value.decode("utf-8", "replace") if lib.codes_get_string(h, k, buf, byref(n)) == 0 else None
    if kind == "i":
        v = c_long(0)
        return int(v.value) if lib.codes_get_long(h, k, byref(v)) == 0 else None
    d = c_double(0)
    if lib.codes_get_double(h, k, byref(d)) != 0 or d.value != d.value or abs(d.value) == float("inf"):
        return None
    return float(d.value)

def values(h):
    lib.codes_set_double(h, b"missingValue", SENTINEL)
    n = c_size_t(0)
    check(lib.codes_get_size(h, b"values", byref(n)), "values")
    buf = (c_double * n.value)()
    check(lib.codes_get_double_array(h, b"values", buf, byref(n)), "values")
    return buf, n.value

out = sys.stdout.buffer
index = 0
failing = 1
f = libc.fopen(sys.argv[1].encode(), b"rb")
if not f:
    out.write(json.dumps({"error": "cannot open file", "message": 0}).encode() + b"\n")
    sys.exit(${BRIDGE_EXIT_DECODE_ERROR})
try:
    while True:
        failing = index + 1
        err = c_int(0)
        h = lib.codes_handle_new_from_file(None, f, PRODUCT_GRIB, byref(err))
        if not h:
            check(err.value, "reading message")
            break
        index += 1
        try:
            meta = {k: get(h, k, t) for k, t in KEYS}
            buf, n = values(h)
        finally:
            lib.codes_handle_delete(h)
        out.write(json.dumps({"meta": meta, "count": n}).encode("utf-8") + b"\n")
        out.write(memoryview(buf).cast("B"))
except Exception as e:
    out.write(json.dumps({"error": str(e), "message": failing}).encode("utf-8") + b"\n")
    out.flush()
    sys.exit(${BRIDGE_EXIT_DECODE_ERROR})
finally:
    libc.fclose(f)
out.write(json.dumps({"end": True, "messages": index}).encode("utf-8") + b"\n")
out.flush()
`;
