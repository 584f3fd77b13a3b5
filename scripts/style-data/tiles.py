#!/usr/bin/env python3
"""Steps of scripts/style-data/make.sh on an MBTiles file that GDAL's MVT driver wrote.

  tiles.py finish MBTILES ATTRIBUTION   adds the `attribution` metadata row (GDAL writes none) and
                                        drops the tiles GDAL writes past the world's edge
  tiles.py xyz MBTILES DIR              DIR/{z}/{x}/{y}.pbf (row 0 at the north, tiles gunzipped)
                                        and DIR/tiles.json (TileJSON 3.0.0, tiles relative to DIR)
  tiles.py conf JSON MINZOOM MAXZOOM     the MVT driver's CONF with each layer's zooms kept inside
                                        the set's (a layer's own zooms override the set's)
  tiles.py summary OUTDIR               tile counts and bytes of each set in OUTDIR

MBTiles 1.3 stores rows in TMS order (row 0 at the south): y = 2^z - 1 - tile_row.
"""
import gzip
import json
import os
import sqlite3
import sys


def finish(path, attribution):
    db = sqlite3.connect(path)
    db.execute("DELETE FROM metadata WHERE name = 'attribution'")
    db.execute("INSERT INTO metadata (name, value) VALUES ('attribution', ?)", (attribution,))
    # A feature within the buffer of the world's edge lands in a tile column or row outside
    # 0 ..< 2^z (GDAL does not wrap it); no tile matrix has such a tile.
    db.execute("DELETE FROM tiles WHERE tile_column < 0 OR tile_row < 0 "
               "OR tile_column >= (1 << zoom_level) OR tile_row >= (1 << zoom_level)")
    db.commit()
    db.execute("VACUUM")
    db.close()


def metadata(db):
    return {name: value for name, value in db.execute("SELECT name, value FROM metadata ORDER BY name")}


def xyz(path, folder):
    db = sqlite3.connect(path)
    meta = metadata(db)
    rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles "
                      "ORDER BY zoom_level, tile_column, tile_row")
    for z, x, row, data in rows:
        y = (1 << z) - 1 - row
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        os.makedirs(os.path.join(folder, str(z), str(x)), exist_ok=True)
        with open(os.path.join(folder, str(z), str(x), "%d.pbf" % y), "wb") as f:
            f.write(data)
    layers = json.loads(meta.get("json", "{}")).get("vector_layers", [])
    center = [float(v) for v in meta["center"].split(",")]
    tilejson = {
        "tilejson": "3.0.0",
        "name": meta.get("name", ""),
        "description": meta.get("description", ""),
        "attribution": meta.get("attribution", ""),
        "scheme": "xyz",
        "tiles": ["{z}/{x}/{y}.pbf"],
        "minzoom": int(meta["minzoom"]),
        "maxzoom": int(meta["maxzoom"]),
        "bounds": [float(v) for v in meta["bounds"].split(",")],
        "center": [center[0], center[1], int(center[2])],
        "vector_layers": layers,
    }
    with open(os.path.join(folder, "tiles.json"), "w") as f:
        json.dump(tilejson, f, indent=2, ensure_ascii=False)
        f.write("\n")
    db.close()


def conf(text, minzoom, maxzoom):
    layers = json.loads(text)
    for name, layer in layers.items():
        layer["minzoom"] = max(layer["minzoom"], minzoom)
        layer["maxzoom"] = min(layer["maxzoom"], maxzoom)
        if layer["minzoom"] > layer["maxzoom"]:
            sys.exit("tiles.py conf: layer %s has no zoom in %d-%d" % (name, minzoom, maxzoom))
    print(json.dumps(layers, sort_keys=True))


def summary(folder):
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".mbtiles"):
            db = sqlite3.connect(path)
            by_zoom = db.execute("SELECT zoom_level, count(*), sum(length(tile_data)) FROM tiles "
                                 "GROUP BY zoom_level ORDER BY zoom_level").fetchall()
            db.close()
            zooms = ", ".join("z%d: %d tiles %d B" % row for row in by_zoom)
            print("%-28s %9d B  %s" % (name, os.path.getsize(path), zooms))
        elif name.endswith(".pmtiles"):
            print("%-28s %9d B" % (name, os.path.getsize(path)))
        elif os.path.isdir(path):
            count = size = 0
            for base, _, files in os.walk(path):
                for f in files:
                    if f.endswith(".pbf"):
                        count += 1
                        size += os.path.getsize(os.path.join(base, f))
            print("%-28s %9d B  %d tiles (uncompressed)" % (name + "/", size, count))


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "finish":
        finish(args[1], args[2])
    elif len(args) == 3 and args[0] == "xyz":
        xyz(args[1], args[2])
    elif len(args) == 4 and args[0] == "conf":
        conf(args[1], int(args[2]), int(args[3]))
    elif len(args) == 2 and args[0] == "summary":
        summary(args[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
