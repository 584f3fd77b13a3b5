#!/usr/bin/env bash
# Renders every golden case (every image golden.json names, with its report)
# and every example at three scales into one folder, so that two builds can be
# compared file by file:
#
#   scripts/render-corpus.sh <mapsnap> <out-folder>
#   diff -r old-folder new-folder      # byte-identical PNGs and reports
#
# Reports are written with --report-detail full; their "timings" and
# "version" members are removed, the only members that may differ by build.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(readlink -f "$1"); out=$2
export MAPSNAP_FONT_DIR=${MAPSNAP_FONT_DIR:-$PWD/Fonts}
rm -rf "$out"; mkdir -p "$out/golden" "$out/examples"
cp -R Golden/. "$out/golden/"
ln -s "$PWD/Examples" "$out/Examples"   # the cases name ../../Examples/data
find "$out/golden" \( -name '*.png' -o -name '*.report.json' \) -delete
# Recording writes each image and report this build produces (exit 1: recorded),
# one image at a time: a frame of an ogr source counts the features of the
# read that serves it, which a concurrent frame of the same case may have made.
(cd "$out" && env -u CI MAPSNAP_RECORD= "$bin" test golden --record all --quiet --jobs 1 \
  --html '' --junit '' --artifacts "$out/artifacts" >/dev/null 2>&1) || true
rm -rf "$out/artifacts"
for scene in Examples/*.json; do
  name=$(basename "$scene" .json)
  for scale in 4000 25000 400000; do
    "$bin" render "$scene" --scale "$scale" -o "$out/examples/$name-$scale.png" \
      --report "$out/examples/$name-$scale.report.json" --report-detail full \
      >/dev/null 2>"$out/examples/$name-$scale.stderr" || echo "exit $?" >>"$out/examples/$name-$scale.stderr"
  done
done
python3 - "$out" <<'PY'
import json, pathlib, sys
for p in pathlib.Path(sys.argv[1]).rglob("*.report.json"):
    try: d = json.loads(p.read_text())
    except Exception: continue
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in ("timings", "version", "durationMs")}
        if isinstance(o, list): return [strip(v) for v in o]
        return o
    p.write_text(json.dumps(strip(d), indent=1, sort_keys=True))
PY
