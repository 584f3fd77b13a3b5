#!/usr/bin/env bash
# The `ogr` example datasets (Examples/data/ogr/), made from the Helsinki
# GeoJSON beside them with GDAL's ogr2ogr (Debian's gdal-bin; make setup
# installs it). Committed, so tests and examples need no GDAL tools; run
# again to remake them (the output is the same for the same GDAL).
#
#   helsinki.gpkg         GeoPackage in EPSG:3067 (ETRS-TM35FIN): roads, pois, areas, buildings
#   helsinki_3067_*.geojson  the same features written back from the GeoPackage
#                         at full precision, to compare renders with (same numbers)
#   helsinki_roads.shp    Shapefile (+ .shx .dbf .prj .cpg), WGS84, UTF-8
#   helsinki_pois.fgb     FlatGeobuf with its packed R-tree, WGS84 (and
#                         helsinki_fgb_pois.geojson, its features in its order)
#   helsinki.gdb/         Esri File Geodatabase (OpenFileGDB), WGS84: pois
#
#   scripts/make-ogr-data.sh [OUT]     (default Examples/data/ogr)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-Examples/data/ogr}
src=Examples/data
command -v ogr2ogr >/dev/null || { echo "make-ogr-data: ogr2ogr not found (apt-get install gdal-bin)" >&2; exit 1; }
mkdir -p "$out"
rm -rf "$out/helsinki.gpkg" "$out"/helsinki_roads.* "$out/helsinki_pois.fgb" "$out/helsinki.gdb" "$out"/helsinki_3067_*.geojson \
  "$out/helsinki_fgb_pois.geojson"
# Reproducible files: no creation time in the GeoPackage or the File Geodatabase.
export OGR_CURRENT_DATE="2026-01-01T00:00:00Z"
export OGR_SQLITE_JOURNAL=OFF
for layer in roads pois areas buildings; do
  update=(); [ -e "$out/helsinki.gpkg" ] && update=(-update)
  ogr2ogr -f GPKG "$out/helsinki.gpkg" "$src/helsinki_$layer.geojson" -nln "$layer" -t_srs EPSG:3067 "${update[@]}" -lco SPATIAL_INDEX=YES
  ogr2ogr -f GeoJSON "$out/helsinki_3067_$layer.geojson" "$out/helsinki.gpkg" "$layer" -lco COORDINATE_PRECISION=17 -lco RFC7946=NO -lco WRITE_NAME=NO
done
ogr2ogr -f "ESRI Shapefile" "$out/helsinki_roads.shp" "$src/helsinki_roads.geojson" -lco ENCODING=UTF-8 -lco SPATIAL_INDEX=YES
ogr2ogr -f FlatGeobuf "$out/helsinki_pois.fgb" "$src/helsinki_pois.geojson" -lco SPATIAL_INDEX=YES
# FlatGeobuf's index sorts the features along a Hilbert curve: that is the
# dataset's order, written back to compare renders with.
ogr2ogr -f GeoJSON "$out/helsinki_fgb_pois.geojson" "$out/helsinki_pois.fgb" -lco COORDINATE_PRECISION=17 -lco RFC7946=NO -lco WRITE_NAME=NO
ogr2ogr -f OpenFileGDB "$out/helsinki.gdb" "$src/helsinki_pois.geojson" -nln pois
ls -la "$out"
