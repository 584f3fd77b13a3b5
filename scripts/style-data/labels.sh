#!/usr/bin/env bash
# The glyph ranges and sprite the benchmark style (Examples/styles/bright.json) names, linked into
# OUTDIR from the render-test suite's fixtures in ../shared/conformance/render-suite (BSD licence,
# ../shared/conformance/README.md): glyphs/{fontstack}/{range}.pbf for the style's two fontstacks
# (both served by the suite's "Open Sans Semibold,Arial Unicode MS Bold" ranges, so MapLibre Native
# and mapsnap draw the same SDF glyphs; below, the ranges it lacks) and sprites/sprite{,@2x}.{json,png} (Maki icons).
#   scripts/style-data/labels.sh OUTDIR
set -euo pipefail
OUT=${1:?usage: labels.sh OUTDIR}
SUITE="${SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/conformance/render-suite"
[ -d "$SUITE/glyphs" ] || { echo "labels.sh: no $SUITE/glyphs" >&2; exit 1; }
mkdir -p "$OUT/glyphs" "$OUT/sprites"
# The suite has six ranges (Latin, Arabic, punctuation, presentation forms); every other range
# of the Basic Multilingual Plane is an empty range file, which holds no glyph: MapLibre Native
# fails a whole frame over a range it cannot load (a POI named in Cyrillic or Chinese), and
# leaves the code points of an empty one blank; mapsnap draws those from its bundled fonts.
suite_stack="$SUITE/glyphs/Open Sans Semibold,Arial Unicode MS Bold"
for stack in "Noto Sans Regular" "Noto Sans Bold"; do
  rm -rf "$OUT/glyphs/$stack"
  mkdir -p "$OUT/glyphs/$stack"
  for start in $(seq 0 256 65280); do
    range="$start-$((start + 255)).pbf"
    if [ -f "$suite_stack/$range" ]; then
      ln -s "$suite_stack/$range" "$OUT/glyphs/$stack/$range"
    else
      : >"$OUT/glyphs/$stack/$range"
    fi
  done
done
for f in sprite.json sprite.png sprite@2x.json sprite@2x.png; do
  [ -f "$SUITE/sprites/$f" ] && ln -sf "$SUITE/sprites/$f" "$OUT/sprites/$f"
done
echo "labels.sh: glyphs and sprite linked into $OUT"
