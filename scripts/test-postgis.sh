#!/usr/bin/env bash
# `ogr` sources from a real PostGIS server (issue 15): a PostgreSQL 15
# cluster with PostGIS is made in a temporary folder (initdb, a Unix socket
# only, no network), the Helsinki layers are loaded with ogr2ogr, and
#  - the Helsinki frame rendered from PostGIS must equal, pixel for pixel,
#    the same frame from the GeoJSON files, its report saying PostgreSQL,
#    a spatial index, and part of each table read;
#  - mapsnap reads those tables with libpq itself (GDAL is not loaded), and
#    through GDAL (a connection string with a GDAL option) the frame and its
#    report's ogr blocks are the same;
#  - a table with a column of every kind the libpq reader decodes gives the
#    same label texts both ways; one with dates is read through GDAL;
#  - host and user come from the environment (PGHOST, PGUSER), never the scene;
#  - a table altered during a batch (int4 to int8) is looked up again: every
#    frame drawn, every value right;
#  - a table that does not exist is a layer error listing the tables;
#  - under --root a PG: source is refused;
#  - a batch of 1,000 thumbnails from PostGIS gives the same pixels as from
#    the GeoPackage, and the time of each is printed (issue 15's target: 2x);
#  - with the server stopped, a frame fails fast (connect_timeout) with the
#    database's own message as a layer error;
#  - a batch outlives a restart of the server: its frames read the tables
#    again once the failure to connect it kept (10 s) is stale.
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
# The same through GDAL: `active_schema` is GDAL's option, not libpq's.
gdal = json.loads(json.dumps(scene))
for l in gdal["layers"]:
    l["source"]["ogr"] = "PG:dbname=gis active_schema=public"
json.dump(gdal, open(os.path.join(work, "gdal.json"), "w"))
def labelled(conn, table, text):
    return {"version": 1, "map": {"center": [24.94, 60.17], "scale": 8000, "size": [512, 512], "background": "#ffffff"},
            "layers": [{"id": table, "type": "features", "source": {"ogr": conn, "layer": table},
                        "style": {"marker": {"shape": "circle", "size": 6, "fill": "#c0392b"},
                                  "label": {"text": text, "size": 10, "color": "#222", "allowOverlap": True}}}]}
kinds = "{i2}|{i4}|{i8}|{f4}|{f8}|{b}|{t}|{v}|{c}"
json.dump(labelled("PG:dbname=gis", "kinds", kinds), open(os.path.join(work, "kinds.json"), "w"))
json.dump(labelled("PG:dbname=gis active_schema=public", "kinds", kinds), open(os.path.join(work, "kinds-gdal.json"), "w"))
json.dump(labelled("PG:dbname=gis", "dated", "{name} {seen} {at}"), open(os.path.join(work, "dated.json"), "w"))
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
    assert o["spatialIndex"] is True and o["scanned"] is None, o
    assert o["featuresInLayer"] is None or o["featuresRead"] <= o["featuresInLayer"], o
roads = [l for l in r["layers"] if l["id"] == "minor-roads"][0]["ogr"]
assert roads["featuresRead"] < 2525, roads
print("test-postgis: report:", roads)
PY

# Whether a render loaded GDAL (the dynamic loader's own account; read from
# a file, since grep -q ending a pipe early would fail it under pipefail).
loads_gdal() {
  LD_DEBUG=files "$MAPSNAP" "$@" >/dev/null 2>"$WORK/ld-debug.log" || true
  grep -q 'file=[^ ]*libgdal' "$WORK/ld-debug.log"
}

step "read with libpq (no GDAL), and through GDAL the same frame and report"
loads_gdal "$WORK/postgis.json" -o "$WORK/out/libpq.png" && fail "the PostGIS frame loaded GDAL"
"$MAPSNAP" "$WORK/gdal.json" -o "$WORK/out/gdal.png" --report "$WORK/out/gdal.report.json" --strict || fail "render through GDAL"
loads_gdal "$WORK/gdal.json" -o "$WORK/out/gdal.png" || fail "a GDAL connection option did not go through GDAL"
"$MAPSNAP" diff "$WORK/out/postgis.png" "$WORK/out/gdal.png" || fail "libpq and GDAL draw different frames"
python3 - "$WORK/out/postgis.report.json" "$WORK/out/gdal.report.json" <<'PY' || fail "libpq and GDAL reports differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert [l["ogr"] for l in a["layers"]] == [l["ogr"] for l in b["layers"]], "ogr blocks differ"
assert a["layers"] == b["layers"], "layers differ"
PY

step "every column kind the libpq reader decodes, as GDAL decodes it; dates through GDAL"
"$PGBIN/psql" -q -v ON_ERROR_STOP=1 -d gis <<'SQL' || fail "creating the kinds and dated tables"
CREATE TABLE kinds (fid serial PRIMARY KEY, i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, b bool, t text,
  v varchar(20), c char(5), geom geometry(Point, 4326));
CREATE INDEX ON kinds USING gist (geom);
INSERT INTO kinds (i2, i4, i8, f4, f8, b, t, v, c, geom) VALUES
  (-7, 123456, 9007199254740993, 0.1, 2.5e-7, true, 'Töölö', 'väylä', 'ab', 'SRID=4326;POINT(24.935 60.170)'),
  (NULL, NULL, -42, NULL, NULL, false, NULL, '', NULL, 'SRID=4326;POINT(24.945 60.171)'),
  (1, 2, 3, 3.4028235e38, -0.0, NULL, 'x', 'y', 'z', 'SRID=4326;POINT(24.940 60.169)');
CREATE TABLE dated (fid serial PRIMARY KEY, name text, seen date, at timestamptz, geom geometry(Point, 4326));
INSERT INTO dated (name, seen, at, geom) VALUES ('dated', '2024-05-06', '2024-05-06 07:08:09+00', 'SRID=4326;POINT(24.94 60.17)');
SQL
for s in kinds kinds-gdal dated; do
  "$MAPSNAP" "$WORK/$s.json" -o "$WORK/out/$s.png" --report "$WORK/out/$s.report.json" --strict || fail "render $s"
done
loads_gdal "$WORK/kinds.json" -o "$WORK/out/kinds.png" && fail "the kinds table loaded GDAL"
loads_gdal "$WORK/dated.json" -o "$WORK/out/dated.png" || fail "the dated table did not go through GDAL"
"$MAPSNAP" diff "$WORK/out/kinds.png" "$WORK/out/kinds-gdal.png" || fail "the kinds table draws differently through GDAL"
python3 - "$WORK/out" <<'PY' || fail "label texts"
import json, os, sys
texts = lambda name: [e["text"] for e in json.load(open(os.path.join(sys.argv[1], name + ".report.json")))["layers"][0]["labels"]["entries"]]
want = ["-7|123456|9007199254740993|0.1|2.5e-07|true|Töölö|väylä|ab   ", "||-42|||false|||", "1|2|3|3.4028235e+38|0||x|y|z    "]
assert texts("kinds") == want, texts("kinds")
assert texts("kinds-gdal") == want, texts("kinds-gdal")
assert texts("dated") == ["dated 2024-05-06 2024-05-06T07:08:09Z"], texts("dated")
print("test-postgis: label texts:", texts("kinds"))
PY

step "a table altered during a batch is looked up again: every frame drawn, every value right"
"$PGBIN/psql" -q -v ON_ERROR_STOP=1 -d gis <<'SQL' || fail "creating the altered table"
CREATE TABLE altered AS SELECT ogc_fid, geom, 7::int4 AS n FROM pois;
ALTER TABLE altered ADD PRIMARY KEY (ogc_fid);
ALTER TABLE altered ALTER COLUMN geom TYPE geometry(Point, 4326);
CREATE INDEX ON altered USING gist (geom);
SQL
python3 - "$ROOT" "$WORK" <<'PY'
import json, os, sys
root, work = sys.argv[1], sys.argv[2]
pois = json.load(open(os.path.join(root, "Examples/data/helsinki_pois.geojson")))["features"][:1000]
scene = {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [128, 128], "background": "#ffffff"},
         "layers": [{"id": "altered", "type": "features", "source": {"ogr": "PG:dbname=gis", "layer": "altered"},
                     "style": {"marker": {"shape": "circle", "size": 5, "fill": "#c0392b"},
                               "label": {"text": "{n}", "size": 10, "color": "#222", "allowOverlap": True}}}]}
json.dump(scene, open(os.path.join(work, "altered.json"), "w"))
os.makedirs(os.path.join(work, "altered"), exist_ok=True)
with open(os.path.join(work, "altered.jsonl"), "w") as m:
    for k in range(3):
        for i, f in enumerate(pois):
            lon, lat = f["geometry"]["coordinates"][:2]
            m.write(json.dumps({"scene": "altered.json", "output": f"altered/{k}-{i:04d}.png", "report": f"altered/{k}-{i:04d}.json", "center": [lon, lat]}) + "\n")
PY
# int4 to int8 once the batch has drawn its first frames (so reads come
# both before and after it): the batch's prepared queries then fail ("cached
# plan must not change result type"), and a query prepared from the old
# catalog would read 8-byte values as 4-byte ones.
( for _ in $(seq 600); do [ "$(ls "$WORK/altered" | head -20 | wc -l)" -ge 20 ] && break; sleep 0.05; done
  "$PGBIN/psql" -q -d gis -c "ALTER TABLE altered ALTER COLUMN n TYPE int8" && date +%s.%N >"$WORK/altered-at" ) &
(cd "$WORK" && "$MAPSNAP" batch altered.jsonl --jobs 2 --strict >/dev/null 2>"$WORK/altered.err") || fail "the batch over the altered table: $(tail -3 "$WORK/altered.err")"
wait
[ -s "$WORK/altered-at" ] || fail "the table was not altered"
python3 - "$WORK" <<'PY' || fail "label values after the ALTER"
import glob, json, os, sys
work = sys.argv[1]
at = float(open(os.path.join(work, "altered-at")).read())
reports = glob.glob(os.path.join(work, "altered", "*.json"))
assert len(reports) == 3000, len(reports)
texts = set()
for r in reports:
    for l in json.load(open(r))["layers"]:
        texts.update(e["text"] for e in l["labels"]["entries"])
assert texts == {"7"}, texts
after = sum(os.path.getmtime(r) > at for r in reports)
assert 0 < after < 3000, f"{after} of 3000 frames after the ALTER: it did not fall inside the batch"
print(f"test-postgis: {after} of 3000 frames drawn after the ALTER, every label 7")
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
grep -q "PostgreSQL:" "$WORK/down.err" || fail "no database message: $(cat "$WORK/down.err")"
grep -qi "connection\|socket\|server" "$WORK/down.err" || fail "the message does not come from the database: $(cat "$WORK/down.err")"

step "a batch outlives a database restart: frames read the tables again once the kept failure is stale"
# One worker renders 256² frames at 1:8000 from PostGIS, each centred on
# another POI, while the server is stopped and started again: frames before the
# stop read the tables; frames after it fail to connect, the failure kept
# for 10 s (OGRSource.failureKeptSeconds); once it is stale, with the server
# back, frames read the tables again. The manifest is long; the batch is
# stopped once a frame has read the tables again, or 40 s after the restart.
mkdir -p "$WORK/restart"
python3 - "$ROOT" "$WORK" <<'PY'
import json, os, sys
root, work = sys.argv[1], sys.argv[2]
# Each frame centred on another POI: a frame over a new area reads the
# tables (the same frame again would be served by the reads kept in memory).
pois = json.load(open(os.path.join(root, "Examples/data/helsinki_pois.geojson")))["features"]
with open(os.path.join(work, "restart.jsonl"), "w") as m:
    for i in range(100000):
        lon, lat = pois[i % len(pois)]["geometry"]["coordinates"][:2]
        m.write(json.dumps({"scene": "postgis.json", "size": [256, 256], "center": [lon, lat],
                            "output": f"restart/frame-{i:06d}.png", "report": f"restart/frame-{i:06d}.json"}) + "\n")
PY
postgis_resume || fail "starting the server again"
(cd "$WORK" && exec "$MAPSNAP" batch restart.jsonl --jobs 1 >/dev/null 2>"$WORK/restart.err") &
batch=$!
stop_batch() { kill "$batch" 2>/dev/null || true; wait "$batch" 2>/dev/null || true; }
for _ in $(seq 600); do [ -f "$WORK/restart/frame-000020.json" ] && break; sleep 0.05; done
[ -f "$WORK/restart/frame-000020.json" ] || { stop_batch; fail "the batch wrote no 20 frames in 30 s: $(tail -3 "$WORK/restart.err")"; }
down=$(date +%s.%N)
postgis_stop
sleep 1
postgis_resume || { stop_batch; fail "restarting the server"; }
up=$(date +%s.%N)
python3 - "$WORK/restart" "$up" <<'PY' || { stop_batch; fail "no frame read the tables again within 40 s of the restart"; }
import glob, json, os, sys, time
folder, up = sys.argv[1], float(sys.argv[2])
while time.time() < up + 40:
    newest = max(glob.glob(os.path.join(folder, "frame-*.json")))
    if os.path.getmtime(newest) > up + 0.5:
        r = json.load(open(newest))
        if not any("error" in l["status"] for l in r["layers"]):
            sys.exit(0)
    time.sleep(0.2)
sys.exit(1)
PY
stop_batch
python3 - "$WORK/restart" "$down" "$up" <<'PY' || fail "frames across the restart"
import glob, json, os, sys
folder, down, up = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
reports = sorted(glob.glob(os.path.join(folder, "frame-*.json")))
n = len(reports)
assert reports[-1].endswith(f"frame-{n - 1:06d}.json"), "frames are written in order, one worker"
def errors(i):
    return sum("error" in l["status"] for l in json.load(open(reports[i]))["layers"])
def written(i):
    return os.path.getmtime(reports[i])
assert all(errors(i) == 0 for i in range(21)), "a frame before the stop failed"
failed = next((i for i in range(n) if errors(i) > 0), None)
assert failed is not None and written(failed) >= down, "no frame failed after the server stopped"
back = next((i for i in range(failed, n) if errors(i) == 0), None)
assert back is not None, "no frame read the tables again"
assert written(back) >= up, f"frame {back} read the tables before the server came back"
# The failure is kept 10 s from the first failed connection, after the stop
# and so before the restart: the next frame after that reads again.
assert written(back) - up <= 12, f"frame {back} read the tables {written(back) - up:.1f} s after the restart"
assert all(errors(i) == 0 for i in range(back, n)), "a frame after the first good one failed again"
print(f"test-postgis: {n} frames: {failed} before the stop read the tables; from frame {back}, "
      f"{written(back) - up:.1f} s after the restart, they read them again")
PY

echo "test-postgis: ok"
