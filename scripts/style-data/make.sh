#!/usr/bin/env bash
# Vector tiles in OpenMapTiles-like layers from ../shared/data (issue 39's style test data).
#
#   scripts/style-data/make.sh OUTDIR              the benchmark set:
#       OUTDIR/helsinki.mbtiles, OUTDIR/helsinki/{z}/{x}/{y}.pbf, OUTDIR/helsinki.pmtiles  (z10-z15)
#       OUTDIR/world.mbtiles,    OUTDIR/world/{z}/{x}/{y}.pbf,    OUTDIR/world.pmtiles     (z0-z4)
#   scripts/style-data/make.sh --fixtures OUTDIR   the small test set:
#       OUTDIR/helsinki-z14.{mbtiles,pmtiles} and OUTDIR/helsinki-z14/ (z14 only),
#       OUTDIR/world-z0-2.{mbtiles,pmtiles} and OUTDIR/world-z0-2/ (z0-z2)
#
# Tiles: GDAL's MVT driver (ogr2ogr -f MVT), Mapbox Vector Tile 2.1, extent 4096, buffer 80
# (5 px of a 256-px tile), gzip-compressed in MBTiles and PMTiles, uncompressed in the XYZ
# folders (so both encodings are covered); the XYZ folders and PMTiles hold the MBTiles' own
# tiles byte for byte (after gunzip for XYZ). Every option is fixed, so the same inputs and
# tools give the same bytes. Needs gdal-bin (with SpatiaLite in its SQLite dialect) and the
# PyPI package pmtiles (pmtiles-convert).
#
# SHARED (default: the repository's ../shared) names the folder holding data/.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
DATA="$SHARED/data"

fixtures=0
if [ "${1:-}" = "--fixtures" ]; then fixtures=1; shift; fi
if [ $# -ne 1 ]; then
  echo "usage: $0 [--fixtures] OUTDIR" >&2
  exit 2
fi
OUT="$1"
for f in helsinki_areas helsinki_buildings helsinki_pois helsinki_roads ne_110m_countries ne_110m_cities; do
  [ -f "$DATA/$f.geojson" ] || { echo "make.sh: missing $DATA/$f.geojson (set SHARED)" >&2; exit 2; }
done
command -v ogr2ogr >/dev/null || { echo "make.sh: ogr2ogr not found (apt-get install gdal-bin)" >&2; exit 2; }
command -v pmtiles-convert >/dev/null || { echo "make.sh: pmtiles-convert not found (python3 -m pip install pmtiles)" >&2; exit 2; }
# The committed fixtures were written by Debian's GDAL 3.6.2 and pmtiles 3.8.1; other versions may
# write other bytes (and GDAL before 3.7 is what the ocean's parts work around).
case "$(ogr2ogr --version)" in
  "GDAL 3.6.2,"*) ;;
  *) echo "make.sh: warning: $(ogr2ogr --version); the committed fixtures were made with GDAL 3.6.2" >&2 ;;
esac

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/style-data.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

# GDAL reads and writes with its own defaults otherwise taken from the environment.
export OGR_SQLITE_CACHE=64 CPL_DEBUG=OFF
# The MVT writer prepares features on a pool of GDAL_NUM_THREADS threads, in whatever order they
# finish; one thread keeps each tile's feature order the order of the source rows.
export GDAL_NUM_THREADS=1

# One source layer of the intermediate GeoPackage: NAME, INPUT (a file of $DATA), SQL.
# Each SQL orders its rows, so features keep one order from run to run.
# A fifth argument, "explode", writes each part of a multi-geometry as a feature of its own.
layer() {
  local gpkg="$1" name="$2" input="$3" sql="$4" update=() shape=(-nlt PROMOTE_TO_MULTI)
  [ -f "$gpkg" ] && update=(-update)
  [ "${5:-}" = explode ] && shape=(-nlt POLYGON -explodecollections)
  ogr2ogr -f GPKG "${update[@]}" "$gpkg" "$DATA/$input.geojson" -nln "$name" "${shape[@]}" \
    -dialect SQLite -sql "$sql"
}

# The OpenMapTiles road classes of an OSM highway value (transportation.class).
ROAD_CLASS="CASE
  WHEN highway IN ('motorway', 'motorway_link') THEN 'motorway'
  WHEN highway IN ('trunk', 'trunk_link') THEN 'trunk'
  WHEN highway IN ('primary', 'primary_link') THEN 'primary'
  WHEN highway IN ('secondary', 'secondary_link') THEN 'secondary'
  WHEN highway IN ('tertiary', 'tertiary_link') THEN 'tertiary'
  WHEN highway IN ('residential', 'unclassified', 'living_street', 'road') THEN 'minor'
  WHEN highway = 'service' THEN 'service'
  ELSE 'path' END"
MAJOR="('motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link', 'tertiary', 'tertiary_link')"
MINOR="('residential', 'unclassified', 'living_street', 'road', 'service')"
PATHS="('footway', 'cycleway', 'path', 'steps', 'pedestrian', 'trail', 'corridor', 'bridleway', 'track')"

# Helsinki (OpenStreetMap): water, landcover, landuse, park, building, transportation,
# transportation_name, poi, place.
helsinki_gpkg() {
  local g="$TMP/helsinki.gpkg"
  layer "$g" water helsinki_areas "SELECT geometry, CASE class WHEN 'basin' THEN 'pond' ELSE 'lake' END AS class
    FROM helsinki_areas WHERE kind = 'water' ORDER BY id"
  layer "$g" landcover helsinki_areas "SELECT geometry, CASE class WHEN 'wetland' THEN 'wetland' ELSE 'grass' END AS class,
    class AS subclass FROM helsinki_areas WHERE kind = 'park' AND class IN ('grass', 'scrub', 'heath', 'wetland') ORDER BY id"
  layer "$g" landuse helsinki_areas "SELECT geometry, class FROM helsinki_areas
    WHERE (kind = 'landuse' AND class IN ('commercial', 'residential', 'civil', 'railway', 'construction'))
       OR (kind = 'park' AND class IN ('pitch', 'playground')) ORDER BY id"
  layer "$g" park helsinki_areas "SELECT geometry, 'park' AS class, name FROM helsinki_areas
    WHERE kind = 'park' AND class IN ('park', 'garden') ORDER BY id"
  layer "$g" building helsinki_buildings "SELECT geometry FROM helsinki_buildings ORDER BY id"
  layer "$g" transportation_major helsinki_roads "SELECT geometry, $ROAD_CLASS AS class,
    CASE WHEN highway LIKE '%_link' THEN 1 ELSE 0 END AS ramp FROM helsinki_roads WHERE highway IN $MAJOR ORDER BY id"
  layer "$g" transportation_minor helsinki_roads "SELECT geometry, $ROAD_CLASS AS class
    FROM helsinki_roads WHERE highway IN $MINOR ORDER BY id"
  layer "$g" transportation_path helsinki_roads "SELECT geometry, 'path' AS class, highway AS subclass
    FROM helsinki_roads WHERE highway IN $PATHS ORDER BY id"
  layer "$g" transportation_name helsinki_roads "SELECT geometry, name, $ROAD_CLASS AS class
    FROM helsinki_roads WHERE name IS NOT NULL AND (highway IN $MAJOR OR highway IN $MINOR) ORDER BY id"
  # rank: tourism and history first, then amenities, shops, offices, the rest (OpenMapTiles'
  # poi.rank, 1 the most important), for filters that thin POIs out.
  layer "$g" poi helsinki_pois "SELECT geometry, name, coalesce(class, category, 'poi') AS class,
    coalesce(class, category, 'poi') AS subclass, coalesce(category, 'other') AS category,
    CASE category WHEN 'tourism' THEN 1 WHEN 'historic' THEN 1 WHEN 'amenity' THEN 2 WHEN 'leisure' THEN 2
      WHEN 'shop' THEN 3 WHEN 'office' THEN 4 ELSE 5 END AS rank
    FROM helsinki_pois WHERE category IS NULL OR category <> 'place' ORDER BY id"
  layer "$g" place helsinki_pois "SELECT geometry, name, class FROM helsinki_pois WHERE category = 'place' ORDER BY id"
}

# Source layer -> tile layer and zooms. Several source layers fill one tile layer, each from its
# own zoom (roads by importance, as OpenMapTiles thins them).
HELSINKI_CONF='{
  "water": {"target_name": "water", "minzoom": 10, "maxzoom": 15},
  "landcover": {"target_name": "landcover", "minzoom": 10, "maxzoom": 15},
  "landuse": {"target_name": "landuse", "minzoom": 10, "maxzoom": 15},
  "park": {"target_name": "park", "minzoom": 10, "maxzoom": 15},
  "building": {"target_name": "building", "minzoom": 13, "maxzoom": 15},
  "transportation_major": {"target_name": "transportation", "minzoom": 10, "maxzoom": 15},
  "transportation_minor": {"target_name": "transportation", "minzoom": 12, "maxzoom": 15},
  "transportation_path": {"target_name": "transportation", "minzoom": 14, "maxzoom": 15},
  "transportation_name": {"target_name": "transportation_name", "minzoom": 13, "maxzoom": 15},
  "poi": {"target_name": "poi", "minzoom": 14, "maxzoom": 15},
  "place": {"target_name": "place", "minzoom": 10, "maxzoom": 15}
}'

# The world (Natural Earth 1:110m): the ocean (a box to Web Mercator's latitude limit less the
# countries), country borders (the boundary lines two countries share), country and city labels.
# The ocean is cut into parts of at most OCEAN_PART_VERTICES vertices (ST_Subdivide), as
# OpenMapTiles cuts its water: GDAL 3.6's MVT writer drops every inner ring of a polygon when
# quantising one of them to tile units makes it invalid (GDAL issue 7890, fixed in 3.7), which
# in one whole-world polygon erased the islands and inland seas of whole tiles at zooms 0-1.
MERCATOR_LAT=85.0511287798
OCEAN_PART_VERTICES=256
world_gpkg() {
  local g="$TMP/world.gpkg"
  layer "$g" water ne_110m_countries "SELECT ST_Subdivide(ST_Difference(BuildMbr(-180, -$MERCATOR_LAT, 180, $MERCATOR_LAT, 4326),
    ST_Union(ST_Buffer(geometry, 0))), $OCEAN_PART_VERTICES) AS geometry, 'ocean' AS class FROM ne_110m_countries" explode
  layer "$g" boundary ne_110m_countries "SELECT * FROM (SELECT ST_LineMerge(CollectionExtract(
      ST_Intersection(ST_Boundary(a.geometry), ST_Boundary(b.geometry)), 2)) AS geometry,
    2 AS admin_level, 0 AS maritime, a.name AS adm0_l, b.name AS adm0_r
    FROM ne_110m_countries a JOIN ne_110m_countries b ON a.rowid < b.rowid AND ST_Intersects(a.geometry, b.geometry)
    ORDER BY a.iso_a3, a.name, b.iso_a3, b.name) WHERE geometry IS NOT NULL"
  # rank: 1 for a population over 100 million, 2 over 30 million, 3 over 5 million, else 4.
  layer "$g" place_country ne_110m_countries "SELECT ST_PointOnSurface(geometry) AS geometry, name, iso_a3,
    'country' AS class, CASE WHEN pop_est > 100000000 THEN 1 WHEN pop_est > 30000000 THEN 2
      WHEN pop_est > 5000000 THEN 3 ELSE 4 END AS rank FROM ne_110m_countries ORDER BY iso_a3, name"
  layer "$g" place_city ne_110m_cities "SELECT geometry, name, 'city' AS class FROM ne_110m_cities ORDER BY name"
}

WORLD_CONF='{
  "water": {"target_name": "water", "minzoom": 0, "maxzoom": 4},
  "boundary": {"target_name": "boundary", "minzoom": 0, "maxzoom": 4},
  "place_country": {"target_name": "place", "minzoom": 0, "maxzoom": 4},
  "place_city": {"target_name": "place", "minzoom": 2, "maxzoom": 4}
}'

# NAME GPKG CONF MINZOOM MAXZOOM BOUNDS CENTER ATTRIBUTION: OUT/NAME.mbtiles, OUT/NAME/, OUT/NAME.pmtiles.
tileset() {
  local name="$1" gpkg="$2" conf="$3" minz="$4" maxz="$5" bounds="$6" center="$7" attribution="$8"
  rm -rf "$OUT/$name.mbtiles" "$OUT/$name" "$OUT/$name.pmtiles"
  conf="$(python3 "$HERE/tiles.py" conf "$conf" "$minz" "$maxz")"
  ogr2ogr -f MVT "$TMP/$name.mbtiles" "$gpkg" \
    -dsco FORMAT=MBTILES -dsco NAME="$name" -dsco DESCRIPTION="mapsnap style test data: $name" \
    -dsco TYPE=baselayer -dsco MINZOOM="$minz" -dsco MAXZOOM="$maxz" \
    -dsco EXTENT=4096 -dsco BUFFER=80 -dsco COMPRESS=YES \
    -dsco SIMPLIFICATION=0 -dsco SIMPLIFICATION_MAX_ZOOM=0 \
    -dsco MAX_SIZE=500000 -dsco MAX_FEATURES=200000 \
    -dsco BOUNDS="$bounds" -dsco CENTER="$center" -dsco CONF="$conf" \
    -dsco TEMPORARY_DB="$TMP/$name.tmp.db"
  python3 "$HERE/tiles.py" finish "$TMP/$name.mbtiles" "$attribution"
  cp "$TMP/$name.mbtiles" "$OUT/$name.mbtiles"
  python3 "$HERE/tiles.py" xyz "$OUT/$name.mbtiles" "$OUT/$name"
  pmtiles-convert "$OUT/$name.mbtiles" "$OUT/$name.pmtiles" >/dev/null
}

OSM="© OpenStreetMap contributors"
NE="Made with Natural Earth"
HELSINKI_BOUNDS="24.9351762,60.1641550,24.9534145,60.1791130"
HELSINKI_CENTER="24.9443,60.1716,15"

helsinki_gpkg
world_gpkg
if [ $fixtures = 1 ]; then
  tileset helsinki-z14 "$TMP/helsinki.gpkg" "$HELSINKI_CONF" 14 14 "$HELSINKI_BOUNDS" "24.9443,60.1716,14" "$OSM"
  tileset world-z0-2 "$TMP/world.gpkg" "$WORLD_CONF" 0 2 "-180,-85.0511,180,85.0511" "10,45,2" "$NE"
else
  tileset helsinki "$TMP/helsinki.gpkg" "$HELSINKI_CONF" 10 15 "$HELSINKI_BOUNDS" "$HELSINKI_CENTER" "$OSM"
  tileset world "$TMP/world.gpkg" "$WORLD_CONF" 0 4 "-180,-85.0511,180,85.0511" "10,45,2" "$NE"
fi
python3 "$HERE/tiles.py" summary "$OUT"
