#!/usr/bin/env bash
# The glyph ranges and sprite the benchmark style (Examples/styles/bright.json) names, linked into
# OUTDIR from the render-test suite's fixtures in ../shared/conformance/render-suite (BSD licence,
# ../shared/conformance/README.md): glyphs/{fontstack}/{range}.pbf for the style's two fontstacks
# (both served by the suite's "Open Sans Semibold,Arial Unicode MS Bold" ranges, so MapLibre Native
# and mapsnap draw the same SDF glyphs) and sprites/sprite{,@2x}.{json,png} (Maki icons).
#   scripts/style-data/labels.sh OUTDIR
set -euo pipefail
OUT=${1:?usage: labels.sh OUTDIR}
SUITE="${SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/conformance/render-suite"
[ -d "$SUITE/glyphs" ] || { echo "labels.sh: no $SUITE/glyphs" >&2; exit 1; }
mkdir -p "$OUT/glyphs" "$OUT/sprites"
for stack in "Noto Sans Regular" "Noto Sans Bold"; do
  ln -sfn "$SUITE/glyphs/Open Sans Semibold,Arial Unicode MS Bold" "$OUT/glyphs/$stack"
done
for f in sprite.json sprite.png sprite@2x.json sprite@2x.png; do
  [ -f "$SUITE/sprites/$f" ] && ln -sf "$SUITE/sprites/$f" "$OUT/sprites/$f"
done
echo "labels.sh: glyphs and sprite linked into $OUT"
