#!/usr/bin/env python3
"""Rebuilds the fuzzing seed corpora under Fuzz/corpus/<target>/ from the
repository (Golden/, Examples/, Benchmarks/, Tests/Fixtures/png), the shared
data (../shared/data: GeoJSON slices and tile sets) and the handwritten edge
cases in Fuzz/seeds/<target>/ (copied as they are). Deterministic: run it
again and `git status` shows no change.

    python3 scripts/make-fuzz-corpus.py [--shared ../shared] [--mapsnap .build/debug/mapsnap]

`--mapsnap` (a built mapsnap) adds reports of a few golden scenes to the
`report` corpus; without it the committed ones stay.
"""
import argparse
import glob
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "Fuzz", "corpus")
SEEDS = os.path.join(REPO, "Fuzz", "seeds")
TARGETS = ["scene", "geojson", "png", "jpeg", "mbtiles", "tilejson", "manifest", "case", "report", "pngrows", "render", "gpkg"]
# Seeds larger than this are left out: the targets' -max_len is at most 64 KiB.
MAX_SEED = 32 * 1024


def put(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_SEED:
        return
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def geojson_slices(path, sizes=(1, 4, 16)):
    """The first n features of a GeoJSON file, compact, for each n."""
    doc = json.loads(read(path))
    out = []
    for n in sizes:
        part = dict(doc)
        part["features"] = doc["features"][:n]
        out.append((n, json.dumps(part, separators=(",", ":"), ensure_ascii=False)))
    return out


def gpkg_seeds():
    """The gpkg target's key=value text for a few rows of each table of the
    committed GeoPackage (Examples/data/ogr/helsinki.gpkg, EPSG:3067)."""
    path = os.path.join(REPO, "Examples", "data", "ogr", "helsinki.gpkg")
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    for (table,) in db.execute("SELECT table_name FROM gpkg_contents WHERE data_type = 'features' ORDER BY table_name").fetchall():
        geom, srs = db.execute("SELECT column_name, srs_id FROM gpkg_geometry_columns WHERE table_name = ?", (table,)).fetchone()
        org, code = db.execute("SELECT organization, organization_coordsys_id FROM gpkg_spatial_ref_sys WHERE srs_id = ?", (srs,)).fetchone()
        cols = [(c[1], c[2]) for c in db.execute(f'PRAGMA table_info("{table}")') if c[1] not in ("fid", geom)]
        for n in (1, 4):
            lines = [f"table={table}", f"geometry={geom}", f"srs={srs}", f"organization={org}", f"code={code}"]
            lines += [f"column={name} {kind}" for name, kind in cols]
            lines.append(f"count={n}")
            names = ", ".join(f'"{c}"' for c, _ in cols)
            for row in db.execute(f'SELECT fid, hex("{geom}"), {names} FROM "{table}" ORDER BY fid LIMIT {n}'):
                values = ["~" if v is None else str(v).replace("|", "/").replace("\n", " ") for v in row[2:]]
                lines.append("row=" + "|".join([str(row[0]), row[1]] + values))
            put("gpkg", f"helsinki-{table}-{n}.txt", "\n".join(lines) + "\n")
    db.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    ap.add_argument("--mapsnap", default=None)
    ap.add_argument("--only", nargs="*", default=None, help="remake only these targets' corpora (those made from the repository)")
    args = ap.parse_args()
    if args.only is not None:
        for t in args.only:
            shutil.rmtree(os.path.join(CORPUS, t), ignore_errors=True)
            os.makedirs(os.path.join(CORPUS, t))
            if t == "gpkg":
                gpkg_seeds()
            for p in sorted(glob.glob(os.path.join(SEEDS, t, "*"))):
                put(t, os.path.basename(p), read(p))
            print(f"{t:9} {len(os.listdir(os.path.join(CORPUS, t))):4} seeds")
        return
    data = os.path.join(args.shared, "data")
    tiles = os.path.join(data, "tiles")

    keep_reports = {}
    report_dir = os.path.join(CORPUS, "report")
    if args.mapsnap is None and os.path.isdir(report_dir):
        keep_reports = {n: read(os.path.join(report_dir, n)) for n in os.listdir(report_dir)}
    for t in TARGETS:
        shutil.rmtree(os.path.join(CORPUS, t), ignore_errors=True)
        os.makedirs(os.path.join(CORPUS, t))

    # Scenes: golden cases, examples and benchmark scenes (decode and render).
    scenes = sorted(glob.glob(os.path.join(REPO, "Golden", "*", "scene.json")))
    for p in scenes:
        name = os.path.basename(os.path.dirname(p))
        put("scene", f"golden-{name}.json", read(p))
        put("render", f"golden-{name}.json", read(p))
    for p in sorted(glob.glob(os.path.join(REPO, "Examples", "*.json")) + glob.glob(os.path.join(REPO, "Benchmarks", "scenes", "*.json"))):
        put("scene", "example-" + os.path.basename(p), read(p))

    # GeoJSON: slices of every data file.
    for p in sorted(glob.glob(os.path.join(data, "*.geojson")) + glob.glob(os.path.join(REPO, "Examples", "data", "*3067.geojson"))):
        stem = os.path.splitext(os.path.basename(p))[0]
        for n, text in geojson_slices(p):
            put("geojson", f"{stem}-{n}.geojson", text)

    # PNG: every colour type and bit depth, icons, a few real tiles.
    pngs = sorted(glob.glob(os.path.join(REPO, "Tests", "Fixtures", "png", "*.png")))
    pngs += sorted(glob.glob(os.path.join(REPO, "Golden", "*", "*.png")))
    pngs = [p for p in pngs if not os.path.basename(p)[0].isdigit()]  # icons, not expected images
    pngs += [os.path.join(tiles, "helsinki-3857", "13", "4663", "2371.png"), os.path.join(tiles, "world-4326", "0", "0", "0.png")]
    for p in pngs:
        if not os.path.exists(p):
            continue
        rel = os.path.relpath(p, REPO if p.startswith(REPO) else args.shared).replace("/", "_")
        put("png", rel, read(p))
        put("pngrows", rel, read(p))
    # Small expected images of mapsnap's own output for the row reader.
    for p in sorted(glob.glob(os.path.join(REPO, "Golden", "*", "2000.png")))[:4]:
        rel = os.path.relpath(p, REPO).replace("/", "_")
        put("pngrows", rel, read(p))

    # JPEG and MBTiles metadata from the tile sets.
    for mb in sorted(glob.glob(os.path.join(tiles, "*.mbtiles"))):
        stem = os.path.splitext(os.path.basename(mb))[0]
        db = sqlite3.connect(f"file:{mb}?mode=ro&immutable=1", uri=True)
        meta = db.execute("SELECT name, value FROM metadata ORDER BY name").fetchall()
        put("mbtiles", f"{stem}.txt", "".join(f"{n}={v}\n" for n, v in meta))
        if "jpeg" in stem:
            rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY length(tile_data) LIMIT 6").fetchall()
            for z, x, y, blob in rows:
                put("jpeg", f"{stem}-{z}-{x}-{y}.jpg", blob)
        db.close()
    for tj in sorted(glob.glob(os.path.join(tiles, "*", "tiles.json"))):
        put("tilejson", os.path.basename(os.path.dirname(tj)) + ".json", read(tj))

    # golden.json of every case.
    for p in sorted(glob.glob(os.path.join(REPO, "Golden", "*", "golden.json"))):
        put("case", os.path.basename(os.path.dirname(p)) + ".json", read(p))

    # Reports of a few golden scenes, rendered by mapsnap.
    if args.mapsnap:
        with tempfile.TemporaryDirectory() as tmp:
            for name in ["labels", "halos", "indoor", "va-anchors", "rotated-annotation", "tiles-4326"]:
                scene = os.path.join(REPO, "Golden", name, "scene.json")
                if not os.path.exists(scene):
                    continue
                for detail in ["full", "counts"]:
                    rep = os.path.join(tmp, "r.json")
                    subprocess.run([args.mapsnap, scene, "--scale", "2000", "-o", os.path.join(tmp, "o.png"), "--report", rep,
                                    "--report-detail", detail, "--size", "160x120"], check=False, capture_output=True)
                    if os.path.exists(rep):
                        put("report", f"{name}-{detail}.json", read(rep))
                        os.remove(rep)
    else:
        for n, b in keep_reports.items():
            put("report", n, b)

    gpkg_seeds()

    # Handwritten edge cases.
    for t in TARGETS:
        for p in sorted(glob.glob(os.path.join(SEEDS, t, "*"))):
            put(t, os.path.basename(p), read(p))

    total = 0
    for t in TARGETS:
        files = os.listdir(os.path.join(CORPUS, t))
        size = sum(os.path.getsize(os.path.join(CORPUS, t, f)) for f in files)
        total += size
        print(f"{t:9} {len(files):4} seeds {size // 1024:6} KiB")
    print(f"total     {total // 1024} KiB")


if __name__ == "__main__":
    main()
