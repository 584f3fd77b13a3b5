# A PostgreSQL 15 cluster with PostGIS in a temporary folder, for
# scripts/test-postgis.sh and scripts/bench-postgis.sh (sourced, as root):
#   postgis_start            initdb into $WORK/data, start it on a Unix
#                            socket only (no network), export PGHOST and
#                            PGUSER, create the database gis with PostGIS and
#                            load the Helsinki layers with ogr2ogr
#   postgis_stop             stop it (fast)
#   postgis_resume           start it again after postgis_stop
#   postgis_batches ROOT     write $WORK/batch-{postgis,gpkg}.jsonl: 1,000
#                            thumbnails centred on Helsinki's POIs, from the
#                            PostGIS tables and from the committed GeoPackage
# $WORK must be set; a trap should call postgis_cleanup.
PGBIN=/usr/lib/postgresql/15/bin

as_postgres() { runuser -u postgres -- "$@"; }

postgis_cleanup() {
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
  if [ "${KEEP:-0}" = 1 ]; then echo "postgis: kept $WORK"; else rm -rf "$WORK"; fi
}

postgis_start() {
  [ -x "$PGBIN/initdb" ] || { echo "postgis: PostgreSQL 15 is missing (make postgis-deps)" >&2; return 1; }
  command -v ogr2ogr >/dev/null || { echo "postgis: ogr2ogr is missing (make postgis-deps)" >&2; return 1; }
  [ "$(id -u)" = 0 ] || { echo "postgis: run as root: the server runs as the postgres user" >&2; return 1; }
  chmod 755 "$WORK"
  mkdir -p "$WORK/data" "$WORK/sock" "$WORK/out" "$WORK/log"
  chown postgres "$WORK/data" "$WORK/sock" "$WORK/log"
  as_postgres "$PGBIN/initdb" -D "$WORK/data" -A trust -U mapsnap >"$WORK/log/initdb.log" 2>&1 ||
    { echo "postgis: initdb: $(tail -3 "$WORK/log/initdb.log")" >&2; return 1; }
  postgis_resume || return 1
  export PGHOST=$WORK/sock PGUSER=mapsnap
  "$PGBIN/createdb" gis || return 1
  "$PGBIN/psql" -q -d gis -c "CREATE EXTENSION postgis" || return 1
  for layer in areas buildings roads pois; do
    ogr2ogr -f PostgreSQL "PG:dbname=gis" "Examples/data/helsinki_$layer.geojson" -nln "$layer" \
      -lco GEOMETRY_NAME=geom -lco SPATIAL_INDEX=GIST || return 1
  done
}

postgis_stop() { as_postgres "$PGBIN/pg_ctl" -D "$WORK/data" -m fast stop >/dev/null; }

# Starts the cluster postgis_start made (after postgis_stop) and waits for it.
postgis_resume() {
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/log/server.log" -w \
    -o "-c listen_addresses='' -k $WORK/sock" start >/dev/null ||
    { echo "postgis: the server did not start: $(tail -5 "$WORK/log/server.log")" >&2; return 1; }
}

postgis_batches() {
  python3 - "$1" "$WORK" <<'PY'
import json, os, sys
root, work = sys.argv[1], sys.argv[2]
pois = json.load(open(os.path.join(root, "Examples/data/helsinki_pois.geojson")))["features"][:1000]
for kind, source in [("postgis", lambda l: {"ogr": "PG:dbname=gis", "layer": l}),
                     ("gpkg", lambda l: {"ogr": os.path.join(root, "Examples/data/ogr/helsinki.gpkg"), "layer": l})]:
    scene = {"version": 1, "map": {"center": [24.9412, 60.1704], "scale": 4000, "size": [128, 128], "background": "#f2efe9"},
             "layers": [{"id": "roads", "type": "features", "source": source("roads"), "style": {"stroke": "#999", "strokeWidth": 2}},
                        {"id": "pois", "type": "features", "source": source("pois"),
                         "style": {"marker": {"shape": "circle", "size": 5, "fill": "#c0392b"}}}]}
    json.dump(scene, open(os.path.join(work, f"thumb-{kind}.json"), "w"))
    with open(os.path.join(work, f"batch-{kind}.jsonl"), "w") as m:
        for i, f in enumerate(pois):
            lon, lat = f["geometry"]["coordinates"][:2]
            m.write(json.dumps({"scene": f"thumb-{kind}.json", "output": f"{kind}/{i:04d}.png", "center": [lon, lat]}) + "\n")
PY
  mkdir -p "$WORK/postgis" "$WORK/gpkg"
}
