#!/usr/bin/env python3
"""Writes Examples/data/helsinki_pois_3067.geojson: the Helsinki POIs with
their coordinates converted from WGS84 to ETRS-TM35FIN (EPSG:3067) by PROJ's
own cs2cs (Debian's proj-bin), to 0.1 mm. Used by the `crs` tests: each POI
must land on the same pixel as its WGS84 original.

    python3 scripts/make-helsinki-3067.py
"""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src = json.load(open(os.path.join(ROOT, "Examples/data/helsinki_pois.geojson")))
coords = [f["geometry"]["coordinates"] for f in src["features"]]
# cs2cs takes EPSG:4326 in its authority's axis order: latitude, longitude.
text = "".join(f"{c[1]!r} {c[0]!r}\n" for c in coords)
out = subprocess.run(["cs2cs", "-f", "%.4f", "EPSG:4326", "EPSG:3067"], input=text, capture_output=True, text=True, check=True)
rows = out.stdout.strip().split("\n")
assert len(rows) == len(coords)
for f, row in zip(src["features"], rows):
    e, n, _ = row.split()
    f["geometry"]["coordinates"] = [float(e), float(n)]
with open(os.path.join(ROOT, "Examples/data/helsinki_pois_3067.geojson"), "w") as out_file:
    out_file.write('{"type": "FeatureCollection", "features": [\n')
    out_file.write(",\n".join(json.dumps(f, ensure_ascii=False) for f in src["features"]))
    out_file.write("\n]}\n")
