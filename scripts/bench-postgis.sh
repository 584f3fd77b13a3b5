#!/usr/bin/env bash
# Issue 15's batch target: 1,000 thumbnails from PostGIS within 2x of the same
# batch from the GeoPackage (`--jobs 2`). Starts a PostGIS cluster in a
# temporary folder (scripts/postgis-cluster.sh), then times the two batches
# alternately, ROUNDS times, for each mapsnap binary given (to compare two
# builds in one run), and prints medians and the ratio of the medians.
#
# Usage: scripts/bench-postgis.sh [--rounds N] MAPSNAP [MAPSNAP...]   (root)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=5
if [ "${1:-}" = --rounds ]; then ROUNDS=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: scripts/bench-postgis.sh [--rounds N] MAPSNAP [MAPSNAP...]" >&2; exit 2; }
BINS=()
for b in "$@"; do BINS+=("$(realpath "$b")"); done

WORK=$(mktemp -d /tmp/mapsnap-bench-postgis.XXXXXX)
. scripts/postgis-cluster.sh
trap postgis_cleanup EXIT
postgis_start >"$WORK/setup.log" 2>&1 || { echo "bench-postgis: starting the cluster: $(tail -5 "$WORK/setup.log")" >&2; exit 1; }
postgis_batches "$ROOT"

cd "$WORK"
: >times.txt
for round in $(seq "$ROUNDS"); do
  for i in "${!BINS[@]}"; do
    for kind in postgis gpkg; do
      # Fresh output folders: overwriting 1,000 files costs the file system
      # more than writing them new, and would hide part of the difference.
      rm -rf postgis gpkg && mkdir postgis gpkg && sync
      t0=$(date +%s%N)
      "${BINS[$i]}" batch "batch-$kind.jsonl" --jobs 2 >/dev/null
      t1=$(date +%s%N)
      echo "$i $kind $(( (t1 - t0) / 1000000 ))" >>times.txt
    done
  done
done
python3 - "${BINS[@]}" <<'PY'
import statistics, sys
bins = sys.argv[1:]
times = {}
for line in open("times.txt"):
    i, kind, ms = line.split()
    times.setdefault((int(i), kind), []).append(int(ms))
for i, b in enumerate(bins):
    pg, gp = statistics.median(times[(i, "postgis")]), statistics.median(times[(i, "gpkg")])
    print(f"bench-postgis: {b}: 1000 thumbnails, median of {len(times[(i, 'gpkg')])}: "
          f"PostGIS {pg:.0f} ms, GeoPackage {gp:.0f} ms, ratio {pg / gp:.2f} (target <= 2)")
PY
