#!/usr/bin/python3
"""Real raster tiles of central Helsinki in ETRS-TM35FIN (EPSG:3067, the JHS 180 tile matrix set),
rendered by Mapnik 3.1 from the shared Helsinki GeoJSON, with the POIs drawn on top as reference
markers for the projection tests.

    /usr/bin/python3 scripts/make-helsinki-3067-tiles.py

Needs Debian's python3-mapnik (Mapnik 3.1, hence /usr/bin/python3), python3-numpy (for the
checks) and proj-bin (cs2cs, projinfo). Reads ../shared (beside the repository; override with
SHARED=...): data/helsinki_*.geojson and the peer benchmark's style "city"
(bench/peers/cases.json, built into Mapnik XML by bench/peers/peer_mapnik.py), labels and the
style's own POI markers left out, as in shared/data/tiles/make_tiles.py. Writes:

  Examples/data/tiles/ETRS-TM35FIN.json    the JHS 180 tile matrix set, levels 0-15, in the OGC
                                           Two Dimensional Tile Matrix Set 2.0 JSON encoding
  Examples/data/tiles/helsinki-3067/       levels 10-14, XYZ folder {z}/{x}/{y}.png (row 0 at the
                                           top = north) and tiles.json naming the TMS file
  Examples/data/tiles/helsinki-3067.gpkg   the same PNG tiles as a GeoPackage 1.3 tile pyramid
                                           (table helsinki_3067; gpkg_contents bounds = the data's
                                           extent snapped outward to the coarsest level's pixels)
  Tests/Fixtures/tiles/helsinki-3067-jpeg.gpkg
                                           levels 10-11 of the same renders as JPEG (quality 85),
                                           table helsinki_jpeg

Reference markers: every POI of helsinki_pois.geojson is drawn last, in every tile, as a filled
disc of 6 px diameter in MARKER (no stroke), centred on the point Mapnik projects it to. Mapnik's
own ellipse marker at 6 px is an 11-gon that Mapnik centres on its bounding box, 0.06 px left of
the point; so the disc is built 80 px wide (a 40-gon, symmetric) and scaled by 0.075. The script
checks that the base map never comes within 40 of MARKER in any channel, and that the drawn discs'
centres agree with PROJ's cs2cs projection of the POIs (to about 0.01 px).

Deterministic: the same Mapnik, zlib, libjpeg, SQLite and PROJ give the same bytes.
"""
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
DATA = os.path.join(SHARED, "data")
sys.path.insert(0, os.path.join(SHARED, "bench", "peers"))
import mapnik  # noqa: E402
import peer_mapnik  # noqa: E402

TILES = os.path.join(ROOT, "Examples", "data", "tiles")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "tiles")
CASES = json.load(open(os.path.join(SHARED, "bench", "peers", "cases.json")))
ATTR_OSM = "© OpenStreetMap contributors"
LAST_CHANGE = "2019-04-21T00:00:00.000Z"  # newest OSM object in the extract (fixed: deterministic)

# JHS 180 ETRS-TM35FIN tile matrix set: origin at the top left, level 0 one 256-px tile of 8192 m cells.
TMS_ORIGIN = (-548576.0, 8388608.0)
TMS_EXTENT = (-548576.0, 6291456.0, 1548576.0, 8388608.0)
TMS_LEVELS = range(0, 16)
ZOOMS = range(10, 15)
JPEG_ZOOMS = (10, 11)
MAX_TILES_TOP = 400  # tiles at the deepest level
MARKER = "#d6336c"
MARKER_RGB = (0xD6, 0x33, 0x6C)
MARKER_DIAMETER = 6.0
MARKER_BUILD = 80.0  # width the ellipse is built at before scaling (gives a symmetric 40-gon)
NEAR = 40  # base-map pixels must differ from MARKER by more than this in some channel
PNG_FORMAT = "png32"  # RGBA; "png8" (palette) would be 2.5x smaller but quantizes the discs' antialiased edges


def cell_size(z):
    return 8192.0 / 2 ** z


def num(v):
    return int(v) if float(v).is_integer() else v


def style_without_labels(name):
    st = json.loads(json.dumps(CASES["styles"][name]))
    st["passes"] = [p for p in st["passes"] if "label" not in p and "marker" not in p]
    return st


def build_xml():
    xml = peer_mapnik.build_xml(style_without_labels("city"), DATA).replace('srs="epsg:3857"', 'srs="epsg:3067"')
    style = ('<Style name="reference_markers"><Rule><MarkersSymbolizer marker-type="ellipse" width="%g" height="%g" '
             'transform="scale(%g)" fill="%s" stroke-width="0" stroke-opacity="0" allow-overlap="true" '
             'ignore-placement="true" placement="point" /></Rule></Style>'
             % (MARKER_BUILD, MARKER_BUILD, MARKER_DIAMETER / MARKER_BUILD, MARKER))
    layer = ('<Layer name="reference_markers" srs="epsg:4326"><StyleName>reference_markers</StyleName><Datasource>'
             '<Parameter name="type">geojson</Parameter><Parameter name="file">%s</Parameter></Datasource></Layer>'
             % os.path.join(os.path.abspath(DATA), "helsinki_pois.geojson"))
    assert xml.endswith("\n</Map>\n")
    return xml[:-len("</Map>\n")] + style + "\n" + layer + "\n</Map>\n"


def make_map():
    m = mapnik.Map(256, 256)
    mapnik.load_map_from_string(m, build_xml())
    m.buffer_size = 16
    assert m.srs == "epsg:3067" and m.layers[-1].name == "reference_markers"
    return m


def to_3067(lonlat):
    """EPSG:4326 -> EPSG:3067 by PROJ's cs2cs (authority axis order: latitude first), to 0.1 mm."""
    text = "".join("%r %r\n" % (lat, lon) for lon, lat in lonlat)
    out = subprocess.run(["cs2cs", "-f", "%.4f", "EPSG:4326", "EPSG:3067"], input=text,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    rows = [r.split() for r in out if r.strip()]
    assert len(rows) == len(lonlat)
    return [(float(r[0]), float(r[1])) for r in rows]


def wkt(code):
    return subprocess.run(["projinfo", "EPSG:%d" % code, "-o", "WKT1_GDAL", "--single-line", "-q"],
                          capture_output=True, text=True, check=True).stdout.strip()


def vertices(coords, out):
    if isinstance(coords[0], (int, float)):
        out.append((coords[0], coords[1]))
    else:
        for c in coords:
            vertices(c, out)


def data_extent():
    lonlat = []
    for name in ("areas", "buildings", "roads", "pois"):
        for f in json.load(open(os.path.join(DATA, "helsinki_%s.geojson" % name)))["features"]:
            vertices(f["geometry"]["coordinates"], lonlat)
    en = to_3067(lonlat)
    wgs = (min(p[0] for p in lonlat), min(p[1] for p in lonlat), max(p[0] for p in lonlat), max(p[1] for p in lonlat))
    ext = (min(p[0] for p in en), min(p[1] for p in en), max(p[0] for p in en), max(p[1] for p in en))
    return wgs, ext


def tiles_for(z, ext):
    """(x, y, box) of the tiles at level z that intersect ext (x from the west, y from the north)."""
    size = 256 * cell_size(z)
    ox, oy = TMS_ORIGIN
    cols = range(int((ext[0] - ox) // size), int(math.ceil((ext[2] - ox) / size)))
    rows = range(int((oy - ext[3]) // size), int(math.ceil((oy - ext[1]) / size)))
    for x in cols:
        for y in rows:
            minx, maxy = ox + x * size, oy - y * size
            yield x, y, (minx, maxy - size, minx + size, maxy)


def render(m, box, markers=True):
    m.layers[-1].active = markers
    m.zoom_to_box(mapnik.Box2d(*box))
    im = mapnik.Image(256, 256)
    mapnik.render(m, im)
    return im


def jpeg_on_white(im):
    white = mapnik.Image(256, 256)
    white.fill(mapnik.Color("white"))
    white.premultiply()
    top = im.copy(mapnik.ImageType.rgba8)
    top.premultiply()
    white.composite(top, mapnik.CompositeOp.src_over)
    white.demultiply()
    return white.tostring("jpeg85")


class Checks:
    """Marker colour absent from the base map; drawn disc centres against cs2cs (isolated POIs only)."""

    def __init__(self, pois):
        import numpy as np
        self.np = np
        self.pois = np.array(pois)
        self.marker = np.array(MARKER_RGB, float)
        self.errors = {}
        self.near_pixels = 0
        self.opaque = True

    def tile(self, z, box, base, marked):
        np = self.np
        b = np.frombuffer(base.tostring(), np.uint8).reshape(256, 256, 4).astype(float)
        p = np.frombuffer(marked.tostring(), np.uint8).reshape(256, 256, 4).astype(float)
        self.opaque &= bool((p[:, :, 3] == 255).all())
        self.near_pixels += int((np.abs(b[:, :, :3] - self.marker).max(axis=2) <= NEAR).sum())
        cs = cell_size(z)
        px = (self.pois[:, 0] - box[0]) / cs
        py = (box[3] - self.pois[:, 1]) / cs
        yy, xx = np.mgrid[0:11, 0:11] + 0.5
        for i in np.nonzero((px >= 6) & (px < 250) & (py >= 6) & (py < 250))[0]:
            d = np.hypot(px - px[i], py - py[i])
            d[i] = 1e9
            if d.min() < 10:  # another disc within reach of the 11-px window
                continue
            x0, y0 = int(px[i]) - 5, int(py[i]) - 5
            bw, pw = b[y0:y0 + 11, x0:x0 + 11, :3], p[y0:y0 + 11, x0:x0 + 11, :3]
            den = ((self.marker - bw) ** 2).sum(axis=2)
            cover = np.clip(((pw - bw) * (self.marker - bw)).sum(axis=2) / np.maximum(den, 1.0), 0, 1)
            cx = (cover * xx).sum() / cover.sum() + x0
            cy = (cover * yy).sum() / cover.sum() + y0
            self.errors.setdefault(z, []).append(math.hypot(cx - px[i], cy - py[i]))

    def report(self):
        np = self.np
        assert self.opaque, "tiles with transparent pixels"
        assert self.near_pixels == 0, "%d base-map pixels within %d of %s" % (self.near_pixels, NEAR, MARKER)
        for z, e in sorted(self.errors.items()):
            e = np.array(e)
            print("  level %d: %d isolated POIs, disc centre vs cs2cs: median %.4f px, max %.4f px"
                  % (z, len(e), np.median(e), e.max()))
            assert e.max() < 0.2


def write_tms(path):
    tms = {
        "id": "ETRS-TM35FIN",
        "title": "ETRS-TM35FIN (JHS 180): ETRS89 / TM35FIN(E,N), Finland",
        "description": "The tile matrix set of the Finnish public administration recommendation JHS 180 "
                       "(as served by the National Land Survey of Finland's WMTS): 256-px tiles, level 0 "
                       "one tile of 8192 m cells, cell size halved at each level down to 0.25 m at level 15.",
        "crs": "http://www.opengis.net/def/crs/EPSG/0/3067",
        "orderedAxes": ["E", "N"],
        "boundingBox": {"lowerLeft": [num(TMS_EXTENT[0]), num(TMS_EXTENT[1])],
                        "upperRight": [num(TMS_EXTENT[2]), num(TMS_EXTENT[3])],
                        "crs": "http://www.opengis.net/def/crs/EPSG/0/3067", "orderedAxes": ["E", "N"]},
        "tileMatrices": [{
            "id": str(z),
            "scaleDenominator": cell_size(z) / 0.00028,
            "cellSize": num(cell_size(z)),
            "cornerOfOrigin": "topLeft",
            "pointOfOrigin": [num(TMS_ORIGIN[0]), num(TMS_ORIGIN[1])],
            "tileWidth": 256,
            "tileHeight": 256,
            "matrixWidth": 2 ** z,
            "matrixHeight": 2 ** z,
        } for z in TMS_LEVELS],
    }
    with open(path, "w") as f:
        json.dump(tms, f, indent=2, ensure_ascii=False)
        f.write("\n")


def write_xyz(folder, tiles, meta):
    if os.path.exists(folder):
        shutil.rmtree(folder)
    for z, x, y, png in tiles:
        d = os.path.join(folder, str(z), str(x))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "%d.png" % y), "wb") as f:
            f.write(png)
    with open(os.path.join(folder, "tiles.json"), "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def write_gpkg(path, table, tiles, ext, title, description):
    """GeoPackage 1.3 tile pyramid; tile_row 0 at the top (north), columns and rows of the full JHS 180 grid."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id = %d" % 0x47504B47)  # 'GPKG'
    db.execute("PRAGMA user_version = 10300")
    db.execute("""CREATE TABLE gpkg_spatial_ref_sys (
        srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,
        organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)""")
    db.execute("""CREATE TABLE gpkg_contents (
        table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
        description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
        CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id))""")
    db.execute("""CREATE TABLE gpkg_tile_matrix_set (
        table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL,
        min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL,
        CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
        CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id))""")
    db.execute("""CREATE TABLE gpkg_tile_matrix (
        table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, matrix_width INTEGER NOT NULL,
        matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height INTEGER NOT NULL,
        pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL,
        CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level),
        CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name))""")
    db.execute("""CREATE TABLE "%s" (
        id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
        tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL, UNIQUE (zoom_level, tile_column, tile_row))""" % table)
    db.executemany("INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)", [
        ("Undefined cartesian SRS", -1, "NONE", -1, "undefined", "undefined cartesian coordinate reference system"),
        ("Undefined geographic SRS", 0, "NONE", 0, "undefined", "undefined geographic coordinate reference system"),
        ("WGS 84 geodetic", 4326, "EPSG", 4326, wkt(4326),
         "longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid"),
        ("ETRS89 / TM35FIN(E,N)", 3067, "EPSG", 3067, wkt(3067), "ETRS-TM35FIN, Finland"),
    ])
    # Bounds of the data snapped outward to the coarsest level's pixel grid (a multiple of every
    # finer one): GDAL takes them as the raster's extent, so its pixels, overviews included, then
    # fall exactly on the tiles' pixels.
    cs = cell_size(min(t[0] for t in tiles))
    ox, oy = TMS_ORIGIN
    bounds = (ox + math.floor((ext[0] - ox) / cs) * cs, oy - math.ceil((oy - ext[1]) / cs) * cs,
              ox + math.ceil((ext[2] - ox) / cs) * cs, oy - math.floor((oy - ext[3]) / cs) * cs)
    db.execute("INSERT INTO gpkg_contents VALUES (?, 'tiles', ?, ?, ?, ?, ?, ?, ?, 3067)",
               (table, title, description, LAST_CHANGE) + bounds)
    db.execute("INSERT INTO gpkg_tile_matrix_set VALUES (?, 3067, ?, ?, ?, ?)", (table,) + TMS_EXTENT)
    for z in sorted({t[0] for t in tiles}):
        cs = cell_size(z)
        db.execute("INSERT INTO gpkg_tile_matrix VALUES (?, ?, ?, ?, 256, 256, ?, ?)", (table, z, 2 ** z, 2 ** z, cs, cs))
    db.executemany('INSERT INTO "%s" (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)' % table,
                   tiles)
    db.commit()
    db.execute("VACUUM")
    db.close()


def main():
    wgs, ext = data_extent()
    print("data extent: EPSG:3067 %.4f %.4f %.4f %.4f; WGS84 %.7f %.7f %.7f %.7f" % (ext + wgs))
    n_top = sum(1 for _ in tiles_for(max(ZOOMS), ext))
    if n_top > MAX_TILES_TOP:
        sys.exit("level %d needs %d tiles (> %d): shrink the extent" % (max(ZOOMS), n_top, MAX_TILES_TOP))

    pois = to_3067([tuple(f["geometry"]["coordinates"]) for f in
                    json.load(open(os.path.join(DATA, "helsinki_pois.geojson")))["features"]])
    checks = Checks(pois)
    m = make_map()
    png, jpeg = [], []
    for z in ZOOMS:
        count = 0
        for x, y, box in tiles_for(z, ext):
            base = render(m, box, markers=False)
            im = render(m, box)
            checks.tile(z, box, base, im)
            png.append((z, x, y, im.tostring(PNG_FORMAT)))
            if z in JPEG_ZOOMS:
                jpeg.append((z, x, y, jpeg_on_white(im)))
            count += 1
        print("  level %d: %d tiles (cell %g m)" % (z, count, cell_size(z)))
    checks.report()

    os.makedirs(FIXTURES, exist_ok=True)
    write_tms(os.path.join(TILES, "ETRS-TM35FIN.json"))
    name = "Central Helsinki in ETRS-TM35FIN (OpenStreetMap, 2019)"
    description = ("Rendered by Mapnik 3.1 from shared/data/helsinki_*.geojson (style \"city\", no labels) "
                   "in the JHS 180 ETRS-TM35FIN tile matrix set; POIs drawn on top as %g-px %s discs"
                   % (MARKER_DIAMETER, MARKER))
    write_xyz(os.path.join(TILES, "helsinki-3067"), png,
              {"tilejson": "3.0.0", "name": name, "description": description, "attribution": ATTR_OSM,
               "tiles": ["{z}/{x}/{y}.png"], "scheme": "xyz", "minzoom": min(ZOOMS), "maxzoom": max(ZOOMS),
               "bounds": list(wgs), "crs": "EPSG:3067", "tileMatrixSet": "../ETRS-TM35FIN.json"})
    write_gpkg(os.path.join(TILES, "helsinki-3067.gpkg"), "helsinki_3067", png, ext, name, description)
    write_gpkg(os.path.join(FIXTURES, "helsinki-3067-jpeg.gpkg"), "helsinki_jpeg", jpeg, ext,
               name + ", JPEG", description + "; JPEG quality 85 on white")
    print("%d PNG tiles, %d JPEG tiles" % (len(png), len(jpeg)))


if __name__ == "__main__":
    main()
