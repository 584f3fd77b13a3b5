#!/usr/bin/env python3
"""The style variants derived from Examples/styles/bright.json, one per source container.

  variants.py           writes them
  variants.py --check   exits 1, naming each, when a written variant differs from what it would write

Examples/styles (over `make style-data`'s Examples/styles/data, camera at MapLibre zoom 15):
  bright-xyz.json       the XYZ folders: "tiles": ["data/helsinki/{z}/{x}/{y}.pbf"], relative to the style
  bright-pmtiles.json   "url": "pmtiles://data/helsinki.pmtiles", relative to the style
Tests/Fixtures/styles (over the fixtures of `make.sh --fixtures`, camera at zoom 14, the
fixtures' one Helsinki zoom; without `glyphs` and `sprite`, which only the benchmark set has):
  bright.json           "url": "mbtiles://helsinki-z14.mbtiles"
  bright-xyz.json, bright-pmtiles.json as above
  bright-tilejson.json  "url": "helsinki-z14/tiles.json" (TileJSON whose tiles are relative to it)

An XYZ source states the tile set's minzoom, maxzoom and bounds (MBTiles, PMTiles and TileJSON
carry them), read from the set's MBTiles metadata when it exists, else from SETS below.
"""
import json
import os
import sqlite3
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STYLE = os.path.join(ROOT, "Examples/styles/bright.json")

# Tile set name -> (minzoom, maxzoom, bounds), as scripts/style-data/make.sh writes them.
SETS = {
    "helsinki": (10, 15, [24.9351762, 60.1641550, 24.9534145, 60.1791130]),
    "world": (0, 4, [-180, -85.0511, 180, 85.0511]),
    "helsinki-z14": (14, 14, [24.9351762, 60.1641550, 24.9534145, 60.1791130]),
    "world-z0-2": (0, 2, [-180, -85.0511, 180, 85.0511]),
}

# (folder, prefix of the tile sets relative to the folder, {source id: tile set}, camera zoom, forms)
TARGETS = [
    ("Examples/styles", "data/", {"helsinki": "helsinki", "world": "world"}, 15, ["xyz", "pmtiles"]),
    ("Tests/Fixtures/styles", "", {"helsinki": "helsinki-z14", "world": "world-z0-2"}, 14,
     ["mbtiles", "xyz", "pmtiles", "tilejson"]),
]
FILE_NAME = {"mbtiles": "bright.json", "xyz": "bright-xyz.json", "pmtiles": "bright-pmtiles.json",
             "tilejson": "bright-tilejson.json"}


def tile_set(folder, prefix, name):
    minzoom, maxzoom, bounds = SETS[name]
    path = os.path.join(ROOT, folder, prefix + name + ".mbtiles")
    if os.path.exists(path):
        db = sqlite3.connect(path)
        meta = dict(db.execute("SELECT name, value FROM metadata"))
        db.close()
        minzoom, maxzoom = int(meta["minzoom"]), int(meta["maxzoom"])
        bounds = [float(v) for v in meta["bounds"].split(",")]
    return minzoom, maxzoom, bounds


def source(form, folder, prefix, name, attribution):
    if form == "mbtiles":
        s = {"type": "vector", "url": "mbtiles://%s%s.mbtiles" % (prefix, name)}
    elif form == "pmtiles":
        s = {"type": "vector", "url": "pmtiles://%s%s.pmtiles" % (prefix, name)}
    elif form == "tilejson":
        s = {"type": "vector", "url": "%s%s/tiles.json" % (prefix, name)}
    else:
        minzoom, maxzoom, bounds = tile_set(folder, prefix, name)
        s = {"type": "vector", "tiles": ["%s%s/{z}/{x}/{y}.pbf" % (prefix, name)], "scheme": "xyz",
             "minzoom": minzoom, "maxzoom": maxzoom, "bounds": bounds}
    s["attribution"] = attribution
    return s


def dumps(value, indent=0):
    """JSON with objects and long arrays one item a line, short arrays on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or (isinstance(value, list) and len(flat) + indent <= 100):
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = ["%s%s: %s" % (inner, json.dumps(k, ensure_ascii=False), dumps(v, indent + 2)) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + dumps(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def variants():
    base = json.load(open(STYLE, encoding="utf-8"))
    for folder, prefix, sets, zoom, forms in TARGETS:
        for form in forms:
            style = json.loads(json.dumps(base))
            style["name"] = "%s (%s)" % (base["name"], form)
            if folder.startswith("Tests/"):
                # The fixtures draw text from mapsnap's bundled fonts and need no sprite: the
                # benchmark's glyph ranges and sprite come from ../shared (make style-data).
                style.pop("glyphs", None)
                style.pop("sprite", None)
            style["zoom"] = zoom
            for sid, name in sets.items():
                style["sources"][sid] = source(form, folder, prefix, name, base["sources"][sid]["attribution"])
            yield os.path.join(ROOT, folder, FILE_NAME[form]), dumps(style) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for path, text in variants():
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == text:
            continue
        if check:
            stale.append(os.path.relpath(path, ROOT))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote", os.path.relpath(path, ROOT))
    if stale:
        sys.exit("stale style variants (run scripts/style-data/variants.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
