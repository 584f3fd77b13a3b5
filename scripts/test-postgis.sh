#!/usr/bin/env bash
# `ogr` sources from a real PostGIS server (issue 15): a PostgreSQL 15
# cluster with PostGIS is made in a temporary folder (initdb, a Unix socket
# only, no network), the Helsinki layers are loaded with ogr2ogr, and
#  - the Helsinki frame rendered from PostGIS must equal, pixel for pixel,
#    the same frame from the GeoJSON files, its report saying PostgreSQL,
#    a spatial index, and part of each table read;
#  - host and user come from the environment (PGHOST, PGUSER), never the scene;
#  - a table that does not exist is a layer error listing the tables;
#  - under --root a PG: source is refused;
#  - a batch of 1,000 thumbnails from PostGIS gives the same pixels as from
#    the GeoPackage, and the time of each is printed (issue 15's target: 2x);
#  - with the server stopped, a frame fails fast (connect_timeout) with the
#    database's own message as a layer error.
#
# Usage: scripts/test-postgis.sh [path/to/mapsnap]   (root; `make test-postgis`)
# Needs: postgresql-15 postgresql-15-postgis-3 gdal-bin (`make postgis-deps`).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MAPSNAP=$(realpath "${1:-.build/release/mapsnap}")
fail() { echo "test-postgis: FAIL: $*" >&2; exit 1; }
step() { echo "test-postgis: $*"; }

[ -x "$MAPSNAP" ] || fail "no mapsnap binary at $MAPSNAP (make build)"

WORK=$(mktemp -d /tmp/mapsnap-postgis.XXXXXX)
. scripts/postgis-cluster.sh
trap postgis_cleanup EXIT

step "a cluster in $WORK (Unix socket only), the Helsinki layers loaded with ogr2ogr"
postgis_start >"$WORK/setup.log" 2>&1 || fail "starting the cluster: $(tail -5 "$WORK/setup.log")"

# The 1:8000 benchmark scene, its sources swapped for PostGIS tables: the
# connection string names only the database; host and user come from PG*.
python3 - "$ROOT" "$WORK" <<'PY'
import json, os, sys
root, work = sys.argv[1], sys.argv[2]
scene = json.load(open(os.path.join(root, "Benchmarks/scenes/helsinki-8000.json")))
names = {"helsinki_areas": "areas", "helsinki_buildings": "buildings", "helsinki_roads": "roads", "helsinki_pois": "pois"}
geojson = json.loads(json.dumps(scene))
for l in geojson["layers"]:
    l["source"]["geojson"] = os.path.join(root, "Benchmarks/scenes", l["source"]["geojson"])
json.dump(geojson, open(os.path.join(work, "geojson.json"), "w"))
for l in scene["layers"]:
    base = os.path.basename(l["source"]["geojson"]).replace(".geojson", "")
    l["source"] = {"ogr": "PG:dbname=gis", "layer": names[base]}
json.dump(scene, open(os.path.join(work, "postgis.json"), "w"))
missing = json.loads(json.dumps(scene))
missing["layers"][-1]["source"]["layer"] = "poi"
json.dump(missing, open(os.path.join(work, "missing.json"), "w"))
PY

step "the frame from PostGIS equals the frame from GeoJSON"
"$MAPSNAP" "$WORK/postgis.json" -o "$WORK/out/postgis.png" --report "$WORK/out/postgis.report.json" --strict || fail "render from PostGIS"
"$MAPSNAP" "$WORK/geojson.json" -o "$WORK/out/geojson.png" || fail "render from GeoJSON"
"$MAPSNAP" diff "$WORK/out/postgis.png" "$WORK/out/geojson.png" || fail "the PostGIS frame differs from the GeoJSON frame"
python3 - "$WORK/out/postgis.report.json" <<'PY' || fail "the report's ogr blocks"
import json, sys
r = json.load(open(sys.argv[1]))
for l in r["layers"]:
    o = l["ogr"]
    assert o["driver"] == "PostgreSQL", o
    assert o["spatialReference"] == "EPSG:4326", o
    assert o["spatialIndex"] is True, o
    assert o["featuresInLayer"] is None or o["featuresRead"] <= o["featuresInLayer"], o
roads = [l for l in r["layers"] if l["id"] == "minor-roads"][0]["ogr"]
assert roads["featuresRead"] < 2525, roads
print("test-postgis: report:", roads)
PY

step "a table that does not exist is a layer error naming the tables"
"$MAPSNAP" "$WORK/missing.json" -o "$WORK/out/missing.png" 2>"$WORK/missing.err" || true
grep -q 'no layer "poi"' "$WORK/missing.err" || fail "no layer error for a missing table: $(cat "$WORK/missing.err")"
grep -q 'did you mean "pois"' "$WORK/missing.err" || fail "no hint for a missing table: $(cat "$WORK/missing.err")"

step "under --root a PG: source is refused"
cp "$WORK/postgis.json" "$WORK/out/rooted.json"
"$MAPSNAP" "$WORK/out/rooted.json" --root "$WORK/out" -o "$WORK/out/rooted.png" 2>"$WORK/rooted.err" || true
grep -q "not allowed under --root" "$WORK/rooted.err" || fail "PG: accepted under --root: $(cat "$WORK/rooted.err")"

step "a batch of thumbnails from PostGIS and from the GeoPackage"
postgis_batches "$ROOT"
cd "$WORK"
start=$(date +%s%N)
"$MAPSNAP" batch batch-postgis.jsonl --jobs 2 >/dev/null || fail "batch from PostGIS"
mid=$(date +%s%N)
"$MAPSNAP" batch batch-gpkg.jsonl --jobs 2 >/dev/null || fail "batch from the GeoPackage"
end=$(date +%s%N)
cd "$ROOT"
n=$(ls "$WORK/postgis" | wc -l)
[ "$n" = 1000 ] || fail "the PostGIS batch wrote $n of 1000 thumbnails"
for f in "$WORK"/postgis/*.png; do
  "$MAPSNAP" diff "$f" "$WORK/gpkg/$(basename "$f")" >/dev/null || fail "thumbnail $(basename "$f") differs between PostGIS and the GeoPackage"
done
pg_ms=$(( (mid - start) / 1000000 )); gpkg_ms=$(( (end - mid) / 1000000 ))
echo "test-postgis: 1000 thumbnails: PostGIS $pg_ms ms, GeoPackage $gpkg_ms ms, ratio $(python3 -c "print(round($pg_ms / $gpkg_ms, 2))") (target <= 2; same pixels)"

step "with the server down, a frame fails fast with the database's message"
postgis_stop
t0=$(date +%s)
"$MAPSNAP" "$WORK/postgis.json" -o "$WORK/out/down.png" --strict 2>"$WORK/down.err" && fail "rendered with the server down"
t1=$(date +%s)
[ $((t1 - t0)) -le 30 ] || fail "took $((t1 - t0)) s with the server down"
grep -q "GDAL:" "$WORK/down.err" || fail "no database message: $(cat "$WORK/down.err")"
grep -qi "connection\|socket\|server" "$WORK/down.err" || fail "the message does not come from the database: $(cat "$WORK/down.err")"

echo "test-postgis: ok"
