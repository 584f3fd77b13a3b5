#!/usr/bin/env python3
"""Rebuilds the fuzzing seed corpora under Fuzz/corpus/<target>/ from the
repository (Golden/, Examples/, Benchmarks/, Tests/Fixtures/png,
Tests/Fixtures/tiles), the shared data (../shared/data: GeoJSON slices and
tile sets), files written here (the registry's tile matrix sets as OGC 2.0
JSON, small GeoPackage tile pyramids) and the handwritten edge cases in
Fuzz/seeds/<target>/ (copied as they are). Deterministic: run it
again and `git status` shows no change.

    python3 scripts/make-fuzz-corpus.py [--shared ../shared] [--mapsnap .build/debug/mapsnap]

`--mapsnap` (a built mapsnap) adds reports of a few golden scenes to the
`report` corpus; without it the committed ones stay.
"""
import argparse
import glob
import hashlib
import json
import math
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, "Fuzz", "corpus")
SEEDS = os.path.join(REPO, "Fuzz", "seeds")
TARGETS = ["scene", "geojson", "png", "jpeg", "mbtiles", "tilejson", "manifest", "case", "report", "pngrows", "render", "gpkg",
           "tilematrixset", "gpkgtiles"]
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


# The tile matrix sets of Sources/MapSnap/Tiles/TileMatrixSet+Registry.swift
# (and WebMercatorQuad of TileMatrixSet.swift), written as OGC 2.0 JSON: id,
# EPSG code, axis order, origin (easting, northing), span of a first-level
# tile in map units, tiles of the first level across and down, levels.
HALF_WORLD = math.pi * 6378137
REGISTRY = [
    ("WebMercatorQuad", 3857, ["X", "Y"], (-HALF_WORLD, HALF_WORLD), 2 * HALF_WORLD, 1, 1, range(0, 31)),
    ("WorldCRS84Quad", 4326, ["Lat", "Lon"], (-180.0, 90.0), 180.0, 2, 1, range(0, 31)),
    ("EuropeanETRS89_LAEAQuad", 3035, ["Y", "X"], (2000000.0, 5500000.0), 4500000.0, 1, 1, range(0, 16)),
    ("UTM31WGS84Quad", 32631, ["E", "N"], (-9501965.72931276, 20003931.4586255), 20003931.4586255, 1, 2, range(1, 25)),
]
# Metres along the equator per degree (MapProjection.metersPerDegree), and
# OGC's standardised rendering pixel: scaleDenominator = cellSize × metres per
# unit / 0.28 mm.
METERS_PER_DEGREE = 2 * math.pi * 6378137 / 360
STANDARD_PIXEL_METERS = 0.00028


def tilematrixset_seeds():
    """The tilematrixset target's files: the ETRS-TM35FIN set of the
    examples and the registry's sets above."""
    put("tilematrixset", "ETRS-TM35FIN.json", read(os.path.join(REPO, "Examples", "data", "tiles", "ETRS-TM35FIN.json")))
    for ident, code, axes, (e, n), span, columns, rows, levels in REGISTRY:
        north_first = axes[0] in ("Y", "N", "Lat")
        per_unit = METERS_PER_DEGREE if code == 4326 else 1.0
        matrices = []
        for z in levels:
            d = z - levels[0]
            cell = span / 256 / 2**d
            matrices.append({
                "id": str(z), "scaleDenominator": cell * per_unit / STANDARD_PIXEL_METERS, "cellSize": cell, "cornerOfOrigin": "topLeft",
                "pointOfOrigin": [n, e] if north_first else [e, n], "tileWidth": 256, "tileHeight": 256,
                "matrixWidth": columns << d, "matrixHeight": rows << d})
        doc = {"id": ident, "uri": f"http://www.opengis.net/def/tilematrixset/OGC/1.0/{ident}",
               "crs": f"http://www.opengis.net/def/crs/EPSG/0/{code}", "orderedAxes": axes, "tileMatrices": matrices}
        put("tilematrixset", f"registry-{ident}.json", json.dumps(doc, indent=1) + "\n")


def png(width, height, rgba):
    """A PNG of one colour (8-bit RGBA), zlib at level 9."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\0" + bytes(rgba) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


GPKG_SCHEMA = """
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL, min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);
CREATE TABLE gpkg_tile_matrix_set (table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL,
  min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL);
CREATE TABLE gpkg_tile_matrix (table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, matrix_width INTEGER NOT NULL,
  matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height INTEGER NOT NULL,
  pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL, CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level));
INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', NULL);
INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', NULL);
"""
WKT_3067 = ('PROJCS["ETRS89 / TM35FIN(E,N)",GEOGCS["ETRS89",DATUM["European_Terrestrial_Reference_System_1989",'
            'SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],'
            'PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",27],'
            'PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],'
            'UNIT["metre",1],AXIS["Easting",EAST],AXIS["Northing",NORTH]]')
SRS_3857 = ("WGS 84 / Pseudo-Mercator", 3857, "EPSG", 3857, "undefined", None)


def put_sqlite(target, name, build):
    """Runs `build(db)` on a fresh SQLite file, then writes it small (512-byte
    pages, vacuumed) into the corpus."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "set.gpkg")
        db = sqlite3.connect(path)
        db.execute("PRAGMA page_size = 512")
        build(db)
        db.commit()
        db.execute("VACUUM")
        db.close()
        put(target, name, read(path))


def gpkg_pyramid(db, table, srs, origin, levels, tiles):
    """A tile pyramid `table`: its gpkg_contents row, its tile matrix set
    (top-left corner `origin`), its levels (zoom, matrix width and height,
    tile width and height, pixel x and y size) and its tiles (zoom, column,
    row, blob)."""
    q = '"' + table.replace('"', '""') + '"'
    db.execute(f"CREATE TABLE {q} (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, "
               "tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL, UNIQUE (zoom_level, tile_column, tile_row))")
    db.execute("INSERT INTO gpkg_contents VALUES (?, 'tiles', ?, '', '2026-01-01T00:00:00.000Z', NULL, NULL, NULL, NULL, ?)",
               (table, table, srs))
    db.execute("INSERT INTO gpkg_tile_matrix_set VALUES (?, ?, ?, ?, ?, ?)", (table, srs, origin[0], origin[1] - 1, origin[0] + 1, origin[1]))
    db.executemany("INSERT INTO gpkg_tile_matrix VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(table,) + level for level in levels])
    db.executemany(f"INSERT INTO {q} (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)", tiles)


def gpkg_base(db, *srs):
    """A GeoPackage's header fields, its tables for tile pyramids, the two
    undefined references and `srs` (gpkg_spatial_ref_sys rows)."""
    db.execute("PRAGMA application_id = 1196444487")  # 'GPKG'
    db.execute("PRAGMA user_version = 10300")
    db.executescript(GPKG_SCHEMA)
    db.executemany("INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)", srs)


def gpkgtiles_seeds():
    """The gpkgtiles target's files: the JPEG pyramid of the test fixtures
    cut down to three tiles, and small pyramids written here (as SQLite files
    and as the target's text)."""
    fixture = os.path.join(REPO, "Tests", "Fixtures", "tiles", "helsinki-3067-jpeg.gpkg")

    def helsinki(db):
        src = sqlite3.connect(f"file:{fixture}?mode=ro&immutable=1", uri=True)
        for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"):
            db.execute(sql)
        for (table,) in src.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"):
            where = " WHERE (zoom_level, tile_column, tile_row) IN (VALUES (10, 456, 837), (11, 913, 1675), (11, 913, 1676))" if table == "helsinki_jpeg" else ""
            rows = src.execute(f'SELECT * FROM "{table}"{where} ORDER BY rowid').fetchall()
            if rows:
                db.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(rows[0]))})', rows)
        for pragma in ("application_id", "user_version"):
            db.execute(f"PRAGMA {pragma} = {src.execute(f'PRAGMA {pragma}').fetchone()[0]}")
        src.close()
    put_sqlite("gpkgtiles", "helsinki-3067-jpeg.gpkg", helsinki)

    world = (-HALF_WORLD, HALF_WORLD)
    dot = png(1, 1, (200, 60, 40, 255))

    def minimal(db):
        gpkg_base(db, SRS_3857)
        gpkg_pyramid(db, "dot", 3857, world, [(0, 1, 1, 1, 1, 2 * HALF_WORLD, 2 * HALF_WORLD)], [(0, 0, 0, dot)])
    put_sqlite("gpkgtiles", "minimal-png.gpkg", minimal)

    def two_pyramids(db):
        gpkg_base(db, SRS_3857)
        gpkg_pyramid(db, "a", 3857, world, [(0, 1, 1, 1, 1, 2 * HALF_WORLD, 2 * HALF_WORLD)], [(0, 0, 0, dot)])
        gpkg_pyramid(db, 'b "quoted"', 3857, world, [(0, 1, 1, 1, 1, 2 * HALF_WORLD, 2 * HALF_WORLD)], [(0, 0, 0, dot)])
    put_sqlite("gpkgtiles", "edge-two-pyramids.gpkg", two_pyramids)

    def non_square_pixels(db):
        gpkg_base(db, SRS_3857)
        cell = 2 * HALF_WORLD / 256
        gpkg_pyramid(db, "wide", 3857, world, [(0, 1, 1, 256, 256, cell, cell / 2)], [(0, 0, 0, png(256, 256, (0, 0, 255, 128)))])
    put_sqlite("gpkgtiles", "edge-non-square-pixels.gpkg", non_square_pixels)

    def zero_rows(db):
        gpkg_base(db, SRS_3857)
        cell = 2 * HALF_WORLD / 256
        gpkg_pyramid(db, "empty", 3857, world, [(z, 1 << z, 1 << z, 256, 256, cell / 2**z, cell / 2**z) for z in range(3)], [])
    put_sqlite("gpkgtiles", "edge-zero-rows.gpkg", zero_rows)

    def no_levels(db):
        gpkg_base(db, SRS_3857)
        gpkg_pyramid(db, "levelless", 3857, world, [], [(0, 0, 0, dot)])
    put_sqlite("gpkgtiles", "edge-no-levels.gpkg", no_levels)

    def absurd(db):
        gpkg_base(db, SRS_3857)
        gpkg_pyramid(db, "absurd", 3857, world, [
            (-3, 1, 1, 256, 256, 1e300, 1e300), (-1, -5, 0, 256, 256, 1.0, 1.0), (0, 1 << 40, 1 << 62, 4096, 4096, 1e-300, 1e-300),
            (1 << 20, (1 << 31) + 1, 1, 0, 0, -1.0, -1.0)], [(-3, 0, 0, dot), (-1, -1, -1, dot), (0, (1 << 40) - 1, (1 << 62) - 1, dot)])
    put_sqlite("gpkgtiles", "edge-absurd-matrices-negative-zooms.gpkg", absurd)

    def extremes(db):
        gpkg_base(db, SRS_3857)
        gpkg_pyramid(db, "extremes", 3857, (-999999999999999.0, 999999999999999.0), [
            (0, 1 << 31, 1 << 31, 4096, 4096, 1e-300, 1e-300), (7, 1, 1, 1, 1, 1e300, 1e300), (1 << 20, 1, 1, 2, 2, 5e-324, 5e-324)],
            [(0, (1 << 31) - 1, (1 << 31) - 1, dot), (7, 0, 0, dot), (1 << 20, 0, 0, png(2, 2, (1, 2, 3, 4))), (7, 1, 1, dot)])
    put_sqlite("gpkgtiles", "edge-extremes.gpkg", extremes)

    def levels_without_key(db):
        # gpkg_tile_matrix declared without its primary key (table_name, zoom_level), as a file may declare it.
        gpkg_base(db, SRS_3857)
        db.execute("DROP TABLE gpkg_tile_matrix")
        db.execute("CREATE TABLE gpkg_tile_matrix (table_name TEXT, zoom_level INTEGER, matrix_width INTEGER, matrix_height INTEGER, "
                   "tile_width INTEGER, tile_height INTEGER, pixel_x_size DOUBLE, pixel_y_size DOUBLE)")
        gpkg_pyramid(db, "keyless", 3857, world, [(z, 1 << z, 1 << z, 1, 1, 2 * HALF_WORLD / 2**z, 2 * HALF_WORLD / 2**z) for z in (2, 0, 1)],
                     [(0, 0, 0, dot), (1, 1, 1, dot), (2, 3, 0, dot)])
    put_sqlite("gpkgtiles", "edge-levels-without-key.gpkg", levels_without_key)

    def srs_none_wkt(db):
        gpkg_base(db, ("ETRS89 / TM35FIN(E,N), by its WKT", 99, "NONE", 99, WKT_3067, None))
        gpkg_pyramid(db, "local", 99, (-548576.0, 8388608.0), [(0, 1, 1, 1, 1, 8192 * 256, 8192 * 256)], [(0, 0, 0, dot)])
    put_sqlite("gpkgtiles", "edge-srs-none-wkt.gpkg", srs_none_wkt)
    gpkgtiles_text_seeds()


def gpkgtiles_text_seeds():
    """The gpkgtiles target's key=value text (GeoPackageTilesWriter): the test
    fixtures' JPEG pyramid with two of its tiles, and edge cases."""
    fixture = os.path.join(REPO, "Tests", "Fixtures", "tiles", "helsinki-3067-jpeg.gpkg")
    src = sqlite3.connect(f"file:{fixture}?mode=ro&immutable=1", uri=True)
    lines = ["contents=" + "|".join(map(str, r)) for r in src.execute("SELECT table_name, data_type FROM gpkg_contents ORDER BY rowid")]
    lines += ["set=" + "|".join(map(str, r)) for r in src.execute("SELECT table_name, min_x, max_y, srs_id FROM gpkg_tile_matrix_set")]
    lines += ["srs=" + "|".join(map(str, r)) for r in src.execute(
        "SELECT srs_id, organization, organization_coordsys_id, replace(definition, char(10), ' ') FROM gpkg_spatial_ref_sys ORDER BY srs_id")]
    lines += ["level=" + "|".join(map(str, r)) for r in src.execute("SELECT * FROM gpkg_tile_matrix ORDER BY zoom_level")]
    lines += [f"tile=|{z}|{x}|{y}|{blob.hex()}" for z, x, y, blob in src.execute(
        "SELECT zoom_level, tile_column, tile_row, tile_data FROM helsinki_jpeg WHERE length(tile_data) <= 8192 ORDER BY length(tile_data) LIMIT 2")]
    src.close()
    put("gpkgtiles", "text-helsinki-3067-jpeg.txt", "\n".join(lines) + "\n")

    def levels(table, zooms, side=64, cells=None):
        return [f"level={table}|{z}|{1 << z}|{1 << z}|{side}|{side}|{2 * HALF_WORLD / side / 2**z!r}|{2 * HALF_WORLD / side / 2**z!r}"
                for z in zooms]
    valid = levels("", range(3)) + ["tile=|0|0|0|png", "tile=|1|1|0|jpeg", "tile=|2|3|3|png", "tile=|2|0|1|00ff"]
    two = ["contents=a|tiles", "contents=b \"quoted\"|tiles", "contents=f|features", "set=a|-20037508.342789244|20037508.342789244|3857",
           'set=b "quoted"|-20037508.342789244|20037508.342789244|3857'] + levels("a", range(2)) + levels('b "quoted"', range(2)) + [
           "tile=a|0|0|0|png", 'tile=b "quoted"|1|0|1|jpeg']
    cell = 2 * HALF_WORLD / 256
    seeds = {
        "valid-pyramid": ["contents=world|tiles"] + valid,
        "valid-pyramid-named": ["table=tiles"] + valid + ["tile=|0|0|0|png256", "level=|5|32|32|1|1|1|1"],
        "two-pyramids-no-table": two,
        "two-pyramids-table": two + ['table=b "quoted"'],
        "two-pyramids-table-not-tiles": two + ["table=f"],
        "zoom-level-twice": levels("", [0, 1, 1]) + ["tile=|1|0|0|png"],
        "non-square-pixels": [f"level=|0|1|1|256|256|{cell!r}|{cell / 2!r}", "tile=|0|0|0|png256"],
        "non-square-tiles": [f"level=|0|1|1|256|128|{cell!r}|{cell!r}", "tile=|0|0|0|png256"],
        "finer-level-bigger-cell": [f"level=|0|1|1|256|256|{cell!r}|{cell!r}", f"level=|1|2|2|256|256|{2 * cell!r}|{2 * cell!r}",
                                    "tile=|1|0|0|png256"],
        "none-organization-wkt": ["srs=99|NONE|99|" + WKT_3067, "set=|-548576.0|8388608.0|99", "level=|0|1|1|1|1|2097152.0|2097152.0",
                                  "tile=|0|0|0|png1"],
        "none-organization-undefined": ["srs=3857|NONE|3857|undefined"] + levels("", [0]),
        "srs-missing": ["set=|0|0|3857", "srs=4326|EPSG|4326|undefined"] + levels("", [0]),
        "missing-table": ["drop=tiles"] + levels("", [0]),
        "missing-tile-matrix": ["drop=gpkg_tile_matrix", "tile=|0|0|0|png"],
        "missing-contents": ["drop=gpkg_contents"] + levels("", [0]),
        "huge-matrices": ["level=|0|2147483648|2147483648|4096|4096|1e-300|1e-300", "level=|1|4294967296|1|256|256|1e-301|1e-301",
                          "level=|2|1099511627776|4611686018427387904|256|256|1e-302|1e-302",
                          "tile=|0|2147483647|2147483647|png", "tile=|2|1099511627775|4611686018427387903|png"],
        "negative-zoom": ["level=|-3|1|1|256|256|1e300|1e300", "level=|-1|-5|0|256|256|1.0|1.0", "tile=|-3|0|0|png", "tile=|-1|-1|-1|png"],
        "extremes": ["set=|-999999999999999.0|999999999999999.0|3857", "level=|0|1|1|4096|4096|5e-324|5e-324",
                     "level=|1048576|1|1|2|2|~|~", "level=|7|1|1|1|1|nan|nan", "tile=|0|0|0|~", "tile=|7|0|0|" + png(1, 1, (1, 2, 3, 4)).hex()],
        "null-and-text-fields": ["contents=~|tiles", "set=~|~|~|~", "srs=~|~|~|~", "level=|zero|one|1|x|64|cell|cell", "tile=|0|0|0|png"],
    }
    for name, text in seeds.items():
        put("gpkgtiles", f"text-{name}.txt", "\n".join(text) + "\n")


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
            if t == "tilematrixset":
                tilematrixset_seeds()
            if t == "gpkgtiles":
                gpkgtiles_seeds()
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
    tilematrixset_seeds()
    gpkgtiles_seeds()

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
