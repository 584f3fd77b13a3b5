#!/usr/bin/env python3
"""Rebuilds the PMTiles fixtures of the StyleTests (VectorTile*/PMTiles*).

Needs gdal-bin (ogr2ogr) and the PyPI package `pmtiles` (3.x). Run from this
folder with the shared data beside the repository:

    python3 make-fixtures.py ../../../../shared/data

- countries-z0-2.pmtiles: Natural Earth countries as vector tiles (GDAL's MVT
  driver into MBTiles, zooms 0-2, gzip'd tiles), converted by pmtiles'
  mbtiles_to_pmtiles; countries-z0-2.tiles.txt lists every tile of the
  MBTiles file: `z x y length fnv1a64-of-stored-bytes` (y in XYZ order).
- leaves.pmtiles: written by pmtiles' Writer with leaf directories of 512
  entries (the Writer makes leaves only past a 16 KiB root, so its choice
  is replaced): a random third of zoom 7 (seed 39), each tile's bytes its
  own `z/x/y` in ASCII, and a run of 1000 zoom-6 tiles from the zoom's
  first id + 100 that share the bytes `run`.
- The `mvt` and `pmtiles` fuzz targets' seeds (Fuzz/seeds, Fuzz/corpus):
  see fuzz_seeds; these need the PyPI package `mapbox-vector-tile` too.
"""
import gzip, os, random, sqlite3, subprocess, sys, tempfile
from pmtiles.convert import mbtiles_to_pmtiles
import pmtiles.writer
from pmtiles.writer import Writer
from pmtiles.tile import zxy_to_tileid, tileid_to_zxy, TileType, Compression

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xffffffffffffffff
    return h

def countries(shared):
    with tempfile.TemporaryDirectory() as tmp:
        mb = os.path.join(tmp, "countries.mbtiles")
        subprocess.run(["ogr2ogr", "-f", "MVT", mb, os.path.join(shared, "ne_110m_countries.geojson"),
                        "-clipsrc", "-180", "-85", "180", "85",
                        "-dsco", "MAXZOOM=2", "-dsco", "MINZOOM=0", "-nln", "countries"], check=True)
        db = sqlite3.connect(mb)
        # GDAL 3.6 also writes tiles for the buffer past the grid's edges
        # (columns of 2^z, rows of -1): not tiles of the pyramid.
        db.execute("delete from tiles where tile_column >= (1 << zoom_level) or tile_row < 0 or tile_row >= (1 << zoom_level)")
        db.commit()
        mbtiles_to_pmtiles(mb, "countries-z0-2.pmtiles", 2)
        lines = []
        for z, x, tms_y, data in db.execute("select zoom_level, tile_column, tile_row, tile_data from tiles order by 1, 2, 3"):
            y = (1 << z) - 1 - tms_y
            lines.append(f"{z} {x} {y} {len(data)} {fnv1a64(data):016x}")
        with open("countries-z0-2.tiles.txt", "w") as f:
            f.write("\n".join(lines) + "\n")

def leaves():
    rng = random.Random(39)
    tiles = {}
    for x in range(128):
        for y in range(128):
            if rng.random() < 1 / 3:
                tiles[zxy_to_tileid(7, x, y)] = f"7/{x}/{y}".encode()
    start = zxy_to_tileid(6, 0, 0) + 100
    for t in range(start, start + 1000):
        tiles[t] = b"run"
    pmtiles.writer.optimize_directories = lambda entries, target: pmtiles.writer.build_roots_leaves(entries, 512)
    with open("leaves.pmtiles", "wb") as f:
        w = Writer(f)
        for t in sorted(tiles):
            w.write_tile(t, tiles[t])
        w.finalize({"tile_type": TileType.UNKNOWN, "tile_compression": Compression.NONE,
                    "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000,
                    "max_lat_e7": 850000000, "center_zoom": 0, "center_lon_e7": 0, "center_lat_e7": 0},
                   {"name": "leaves", "tiles": len(tiles)})
    print("leaves:", len(tiles), "tiles")

def fuzz_seeds(shared):
    """The `mvt` and `pmtiles` fuzz targets' seeds: handwritten edge cases
    in Fuzz/seeds/<target>/ and, with a few small tiles of the render suite,
    in Fuzz/corpus/<target>/ (each at most 32 KiB, as the other corpora)."""
    import mapbox_vector_tile
    repo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    def put(folder, target, name, data):
        path = os.path.join(repo, "Fuzz", folder, target)
        os.makedirs(path, exist_ok=True)
        assert len(data) <= 32 * 1024, name
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)
    def seed(target, name, data):
        put("seeds", target, name, data)
        put("corpus", target, name, data)
    layers = [{"name": "kinds", "features": [
        {"geometry": "POINT(10 20)", "properties": {"s": "text", "i": -3, "u": 7, "f": 1.5, "b": True}, "id": 1},
        {"geometry": "MULTIPOINT((1 2), (3 4))", "properties": {"s": "m"}, "id": 2},
        {"geometry": "LINESTRING(0 0, 100 100, 200 0)", "properties": {"n": 123456789012}},
        {"geometry": "MULTILINESTRING((0 0, 5 5), (10 10, 20 0))", "properties": {}},
        {"geometry": "POLYGON((0 0, 0 100, 100 100, 100 0, 0 0), (20 20, 80 20, 80 80, 20 80, 20 20))", "properties": {"k": "hole"}},
        {"geometry": "MULTIPOLYGON(((0 0, 0 10, 10 10, 10 0, 0 0)), ((20 20, 20 30, 30 30, 30 20, 20 20)))", "properties": {}},
    ]}]
    for extent in (512, 4096, 8192):
        tile = mapbox_vector_tile.encode(layers, default_options={"extents": extent, "y_coord_down": True})
        seed("mvt", f"edge-kinds-extent-{extent}.mvt", tile)
    seed("mvt", "edge-kinds.mvt.gz", gzip.compress(mapbox_vector_tile.encode(layers), mtime=0))
    seed("mvt", "edge-empty.mvt", b"")
    suite = os.path.join(shared, "..", "conformance", "render-suite", "tiles")
    for name in ["counties-7-37-48.mvt", "14-4357-6245.mvt", "2-2-2.mvt"]:
        put("corpus", "mvt", name, read(os.path.join(suite, name)))
    put("corpus", "mvt", "counties-7-37-48.mvt.gz", gzip.compress(read(os.path.join(suite, "counties-7-37-48.mvt")), mtime=0))

    header = {"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, "min_lon_e7": -1800000000,
              "min_lat_e7": -850000000, "max_lon_e7": 1800000000, "max_lat_e7": 850000000, "center_zoom": 0,
              "center_lon_e7": 0, "center_lat_e7": 0}
    def archive(tiles, leaf_size=None, head=header, metadata={"name": "seed"}):
        saved = pmtiles.writer.optimize_directories
        if leaf_size:
            pmtiles.writer.optimize_directories = lambda entries, target: pmtiles.writer.build_roots_leaves(entries, leaf_size)
        with tempfile.TemporaryFile() as f:
            w = Writer(f)
            for t in sorted(tiles):
                w.write_tile(t, tiles[t])
            w.finalize(dict(head), metadata)
            f.seek(0)
            data = f.read()
        pmtiles.writer.optimize_directories = saved
        return data
    small = gzip.compress(mapbox_vector_tile.encode(layers), mtime=0)
    seed("pmtiles", "edge-one-tile.pmtiles", archive({0: small}))
    seed("pmtiles", "edge-pyramid.pmtiles", archive({t: small if t % 2 else gzip.compress(b"", mtime=0) for t in range(21)}))
    seed("pmtiles", "edge-runs.pmtiles", archive({t: b"same" for t in range(5, 40)} | {50: b"other"},
                                                   head=dict(header, tile_type=TileType.UNKNOWN, tile_compression=Compression.NONE)))
    names = {zxy_to_tileid(5, x, y): f"5/{x}/{y}".encode() for x in range(0, 32, 3) for y in range(0, 32, 2)}
    seed("pmtiles", "edge-leaves.pmtiles", archive(names, leaf_size=8,
                                                     head=dict(header, tile_type=TileType.UNKNOWN, tile_compression=Compression.NONE)))
    seed("pmtiles", "edge-no-metadata.pmtiles", archive({1: b"x"}, metadata={}, head=dict(header, tile_compression=Compression.NONE)))

def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([(v & 0x7f) | 0x80])
        v >>= 7
    return out + bytes([v])

def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload

def pmtiles_header(root_length, internal=1, tiles=1, leaves_offset=None):
    import struct
    root_offset = 127
    after = root_offset + root_length
    return (b"PMTiles" + bytes([3]) + struct.pack("<11Q", root_offset, root_length, after, 0, leaves_offset or after, 0,
            after, 0, 0, 0, 0) + bytes([1, internal, tiles, 1, 0, 0]) + struct.pack("<4i", 0, 0, 0, 0) + b"\0" +
            struct.pack("<2i", 0, 0))

def reproducers():
    """Tests/Fixtures/fuzz/{mvt,pmtiles}: each hostile case the fuzz targets
    must keep refusing (or reading), replayed by FuzzTests."""
    repo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    def put(target, name, data):
        path = os.path.join(repo, "Tests", "Fixtures", "fuzz", target)
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)
    def layer(features, extra=b""):
        return field(3, field(1, b"a") + b"".join(field(2, f) for f in features) + extra)
    def feature(geometry, kind=2):
        return varint(3 << 3) + varint(kind) + field(4, b"".join(varint(v) for v in geometry))
    put("mvt", "rejected-truncated-varint.mvt", bytes([0x1a, 0x80]))
    put("mvt", "rejected-command-count-past-end.mvt", layer([feature([1 | (1 << 28) << 3, 2, 2])]))
    put("mvt", "rejected-key-index-out-of-range.mvt", layer([field(2, bytes([5, 0])) + feature([9, 0, 0], 1)]))
    put("mvt", "rejected-gzip-truncated.mvt", gzip.compress(layer([feature([9, 0, 0], 1)]), mtime=0)[:20])
    # Coordinates that pass Int32: they wrap.
    put("mvt", "accepted-wrapping-coordinates.mvt", layer([feature([9, 0xfffffffe, 0, 10, 0xfffffffe, 0])]))
    put("mvt", "accepted-ten-thousand-empty-features.mvt", layer([b""] * 10000))
    # A root directory that claims 100 MB.
    put("pmtiles", "rejected-huge-root-directory.pmtiles", pmtiles_header(100_000_000) + b"\0")
    # A leaf directory whose only entry is itself.
    leaf = varint(1) + varint(0) + varint(0) + varint(5) + varint(1)  # 5 bytes: its own length
    root = varint(1) + varint(0) + varint(0) + varint(len(leaf)) + varint(1)
    put("pmtiles", "rejected-leaf-points-at-itself.pmtiles", pmtiles_header(len(root), leaves_offset=127 + len(root)) + root + leaf)
    put("pmtiles", "rejected-brotli-directories.pmtiles", pmtiles_header(1, internal=3) + b"\0")
    put("pmtiles", "rejected-entries-past-the-bytes.pmtiles", pmtiles_header(1) + varint(100))

def read(path):
    with open(path, "rb") as f:
        return f.read()

shared = sys.argv[1]
countries(shared)
leaves()
fuzz_seeds(shared)
reproducers()
