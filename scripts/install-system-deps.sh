#!/usr/bin/env bash
# Debian packages Meteopunto needs beyond npm:
#   python3, libeccodes-tools  GRIB decoding: ecCodes (C library) driven by /usr/bin/python3 through ctypes
#   redis-server      test suite (queues, quotas) and production with REDIS_URL
#   python3-xarray python3-zarr python3-numcodecs python3-netcdf4 python3-gdal gdal-bin
#                     independent checks in the tests (xarray opens our Zarr, GDAL decodes GRIB)
#   chromium          widget.php tests in a real browser (driven by playwright-core; test/api/widget)
# Installs only what is missing; needs root (or sudo) and Debian's apt. `npm test` runs it first (pretest).
set -euo pipefail
PKGS=(python3 libeccodes-tools redis-server python3-xarray python3-zarr python3-numcodecs python3-netcdf4 python3-gdal gdal-bin bzip2 chromium)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing system packages: ${missing[*]}. Install them with your package manager (Debian/Ubuntu: apt-get install ${missing[*]})." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "Missing system packages: ${missing[*]}. As root, run: apt-get install ${missing[*]} (or scripts/install-system-deps.sh)." >&2
    exit 1
  fi
  SUDO="sudo"
fi
echo "installing system packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
