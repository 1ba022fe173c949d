#!/bin/sh
# Regenerates tiles/ops/render/outlines.geojson, the lines `tiles render`
# draws over its maps, with GDAL's ogr2ogr from the Natural Earth 1:10m
# outlines in ../shared/data/boundaries (public domain). Italy contributes
# its exterior rings only: its two holes are San Marino and the Vatican,
# drawn from their own outlines, so each enclave gets one line (the hole,
# simplified differently, used to cross it). Douglas–Peucker simplification
# to 0.005° for Italy, 0.002° for the enclaves.
set -eu
cd "$(dirname "$0")/.."
B=../shared/data/boundaries
OUT=tiles/ops/render/outlines.geojson
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ogr2ogr -f GeoJSON -explodecollections -nln parts "$TMP/parts.geojson" "$B/ITA.geojson"
rm -f "$OUT"
ogr2ogr -f GeoJSON -dialect sqlite -nln outlines -simplify 0.005 -nlt MULTILINESTRING -lco COORDINATE_PRECISION=4 \
  -sql "SELECT adm0_a3, ST_Collect(ST_ExteriorRing(geometry)) AS geometry FROM parts GROUP BY adm0_a3" "$OUT" "$TMP/parts.geojson"
for c in SMR VAT; do
  ogr2ogr -append -nln outlines -f GeoJSON -simplify 0.002 -nlt MULTILINESTRING -sql "SELECT adm0_a3 FROM $c" "$OUT" "$B/$c.geojson"
done
