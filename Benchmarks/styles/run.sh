#!/usr/bin/env bash
# The style benchmark (make bench-styles): MapLibre Native (pymgl 0.5.0 on Mesa) against mapsnap on
# Examples/styles/bright.json over the tiles of `make style-data`, one table (compare.py).
#   Benchmarks/styles/run.sh [--runs N] [--thumbs N] [--native-procs P] [--mapsnap PATH] [--out DIR]
# Makes the tiles first when Examples/styles/data has none. Needs `make bench-styles-deps`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
if [ ! -f Examples/styles/data/helsinki.mbtiles ] || [ ! -f Examples/styles/data/world.mbtiles ]; then
  bash scripts/style-data/make.sh Examples/styles/data
fi
[ -e Examples/styles/data/glyphs ] || bash scripts/style-data/labels.sh Examples/styles/data
export EGL_PLATFORM="${EGL_PLATFORM:-surfaceless}"
exec python3 Benchmarks/styles/compare.py "$@"
