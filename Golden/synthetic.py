#!/usr/bin/env python3
"""Writes the synthetic golden scenes (Golden/<case>/scene.json + golden.json).

Each case is designed in logical pixel coordinates (x right, y down, origin at
the top-left of a W x H frame centred on lon 0, lat 0 at its design scale) and
converted to WGS84 with the exact math of the scene format (Web Mercator,
scale / (96 * 39.37) metres per pixel). Run it from the repository root after
changing a case, then record the goldens with MAPSNAP_RECORD=all and look at
every image before committing it.
"""
import json
import math
import os

R = 6378137.0


def lonlat(px, py, w, h, scale):
    mpp = scale / (96 * 39.37)
    x = (px - w / 2) * mpp
    y = (h / 2 - py) * mpp
    lon = x / R * 180 / math.pi
    lat = (2 * math.atan(math.exp(y / R)) - math.pi / 2) * 180 / math.pi
    return [round(lon, 10), round(lat, 10)]


class Case:
    def __init__(self, name, w, h, scale=2000, background="#ffffff"):
        self.name, self.w, self.h, self.scale = name, w, h, scale
        self.map = {"center": [0, 0], "scale": scale, "size": [w, h], "background": background}
        self.layers = []
        self.golden = {"scales": [scale]}

    def ll(self, pts):
        return [lonlat(x, y, self.w, self.h, self.scale) for x, y in pts]

    def line(self, pts):
        return {"type": "LineString", "coordinates": self.ll(pts)}

    def poly(self, *rings):
        out = []
        for r in rings:
            c = self.ll(r)
            out.append(c + [c[0]])
        return {"type": "Polygon", "coordinates": out}

    def point(self, x, y):
        return {"type": "Point", "coordinates": lonlat(x, y, self.w, self.h, self.scale)}

    def graphics(self, lid, items, **extra):
        layer = {"id": lid, "type": "graphics", "graphics": [
            {"id": f"{lid}-{i}", "geometry": g, "style": s} for i, (g, s) in enumerate(items)]}
        layer.update(extra)
        self.layers.append(layer)

    def write(self):
        d = os.path.join("Golden", self.name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "scene.json"), "w") as f:
            json.dump({"version": 1, "map": self.map, "layers": self.layers}, f, indent=1)
            f.write("\n")
        with open(os.path.join(d, "golden.json"), "w") as f:
            json.dump(self.golden, f)
            f.write("\n")


def ref(pts):
    return (pts, {"stroke": "#000000", "strokeWidth": 0.5})


cases = []

# Joins: miter, round, bevel; a sharp turn past the miter limit falls back to bevel.
c = Case("joins", 300, 220)
zig = lambda x0: [(x0 + 5, 200), (x0 + 5, 70), (x0 + 65, 70), (x0 + 25, 150), (x0 + 80, 170)]
items = []
for i, j in enumerate(["miter", "round", "bevel"]):
    pts = zig(15 + i * 95)
    items.append((c.line(pts), {"stroke": "#3366cc", "strokeWidth": 14, "lineJoin": j}))
    items.append((c.line(pts), {"stroke": "#000000", "strokeWidth": 0.5}))
c.graphics("joins", items)
c.graphics("limit", [
    (c.line([(60, 20), (150, 30), (60, 40)]), {"stroke": "#cc3333", "strokeWidth": 8, "lineJoin": "miter", "miterLimit": 4}),
    (c.line([(170, 20), (260, 30), (170, 40)]), {"stroke": "#cc3333", "strokeWidth": 8, "lineJoin": "miter", "miterLimit": 30}),
])
cases.append(c)

# Caps: butt, round, square, with the geometry drawn as a hairline on top.
c = Case("caps", 200, 150)
items = []
for i, cap in enumerate(["butt", "round", "square"]):
    y = 30 + i * 45
    items.append((c.line([(40, y), (160, y)]), {"stroke": "#2a9d8f", "strokeWidth": 20, "lineCap": cap}))
    items.append((c.line([(40, y), (160, y)]), {"stroke": "#000000", "strokeWidth": 0.5}))
items.append((c.line([(40, 5), (40, 145)]), {"stroke": "#e76f51", "strokeWidth": 0.5}))
items.append((c.line([(160, 5), (160, 145)]), {"stroke": "#e76f51", "strokeWidth": 0.5}))
c.graphics("caps", items)
cases.append(c)

# Dashes: patterns, dots from zero-length dashes with round caps, dashed outlines and curves.
c = Case("dashes", 260, 200)
curve = [(20 + t * 2.2, 160 + 25 * math.sin(t / 12)) for t in range(0, 101, 2)]
c.graphics("dashes", [
    (c.line([(20, 20), (240, 20)]), {"stroke": "#264653", "strokeWidth": 3, "strokeDash": [8, 4]}),
    (c.line([(20, 45), (240, 45)]), {"stroke": "#264653", "strokeWidth": 5, "strokeDash": [0, 10], "lineCap": "round"}),
    (c.line([(20, 70), (240, 70)]), {"stroke": "#264653", "strokeWidth": 3, "strokeDash": [12, 4, 2, 4]}),
    (c.line([(20, 95), (240, 95)]), {"stroke": "#264653", "strokeWidth": 2, "strokeDash": [5]}),
    (c.poly([(30, 110), (120, 110), (120, 140), (30, 140)]), {"stroke": "#e63946", "strokeWidth": 2, "strokeDash": [6, 3]}),
    (c.line(curve), {"stroke": "#6a4c93", "strokeWidth": 2.5, "strokeDash": [10, 5], "lineCap": "round", "lineJoin": "round"}),
])
cases.append(c)

# Fill rules and holes: a pentagram under each rule; a hole given with the same
# winding as its outer ring stays a hole; overlapping parts of a MultiPolygon.
c = Case("fill-rules", 320, 140)
def star(cx, cy, r):
    return [(cx + r * math.cos(k * 4 * math.pi / 5 - math.pi / 2), cy + r * math.sin(k * 4 * math.pi / 5 - math.pi / 2)) for k in range(5)]
outer = [(170, 20), (240, 20), (240, 120), (170, 120)]
hole = [(190, 40), (220, 40), (220, 100), (190, 100)]  # same direction as outer
mp = {"type": "MultiPolygon", "coordinates": [
    c.poly([(255, 30), (300, 30), (300, 80), (255, 80)])["coordinates"],
    c.poly([(270, 60), (310, 60), (310, 120), (270, 120)])["coordinates"]]}
c.graphics("shapes", [
    (c.poly(star(45, 70, 55)), {"fill": "#457b9d", "fillRule": "nonzero", "stroke": "#1d3557", "strokeWidth": 1}),
    (c.poly(star(120, 70, 45)), {"fill": "#457b9d", "fillRule": "evenodd", "stroke": "#1d3557", "strokeWidth": 1}),
    (c.poly(outer, hole), {"fill": "#f4a261", "stroke": "#000000", "strokeWidth": 1}),
    (mp, {"fill": "#2a9d8f"}),
])
cases.append(c)

# Hairlines: widths under one pixel keep their weight as reduced alpha.
c = Case("hairlines", 220, 120)
items = []
for i, w in enumerate([0.25, 0.5, 0.75, 1, 1.5, 2]):
    x = 15 + i * 12
    items.append((c.line([(x, 10), (x, 110)]), {"stroke": "#000000", "strokeWidth": w}))
    y = 12 + i * 18
    items.append((c.line([(100, y), (210, y + 9)]), {"stroke": "#000000", "strokeWidth": w}))
c.graphics("hairlines", items)
cases.append(c)

# Tiny polygons: sub-pixel squares, slivers and triangles keep their area as coverage.
c = Case("tiny-polygons", 120, 80)
c.golden["pixelRatios"] = [1, 4]
items = []
for i, s in enumerate([0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5]):
    x, y = 10 + i * 15 + 0.3, 15.4
    items.append((c.poly([(x, y), (x + s, y), (x + s, y + s), (x, y + s)]), {"fill": "#000000"}))
    items.append((c.poly([(x, 40), (x + s * 3, 40), (x, 40 + s * 3)]), {"fill": "#c1121f"}))
    items.append((c.poly([(x, 60), (x + 8, 60), (x + 8, 60 + s / 4), (x, 60 + s / 4)]), {"fill": "#003049"}))
c.graphics("tiny", items)
cases.append(c)

# Group opacity: a layer at 50 % is composed as a whole (overlaps not darker);
# per-feature alpha on the right does darken overlaps.
c = Case("group-opacity", 260, 130, background="#fafafa")
def disc(cx, cy, r, n=48):
    return [(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n)) for k in range(n)]
c.graphics("stripes", [(c.poly([(0, 55), (260, 55), (260, 75), (0, 75)]), {"fill": "#000000"})])
c.graphics("group", [
    (c.poly(disc(50, 60, 35)), {"fill": "#e63946", "stroke": "#000000", "strokeWidth": 3}),
    (c.poly(disc(90, 70, 35)), {"fill": "#e63946", "stroke": "#000000", "strokeWidth": 3}),
], opacity=0.5)
c.graphics("alpha", [
    (c.poly(disc(170, 60, 35)), {"fill": "#e6394680", "stroke": "#00000080", "strokeWidth": 3}),
    (c.poly(disc(210, 70, 35)), {"fill": "#e6394680", "stroke": "#00000080", "strokeWidth": 3}),
])
cases.append(c)

# Scale ranges: inclusive at exactly minScale and maxScale; layer and rule ranges.
c = Case("scale-range", 160, 160, scale=1000)
c.graphics("always", [(c.poly([(10, 10), (150, 10), (150, 150), (10, 150)]), {"fill": "#dddddd"})])
c.graphics("open-500-2000", [(c.poly([(30, 30), (80, 30), (80, 80), (30, 80)]), {"fill": "#1a7f37"})], minScale=2000, maxScale=500)
c.layers.append({"id": "rules", "type": "features", "source": {"data": {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"kind": "a"}, "geometry": c.poly([(90, 90), (140, 90), (140, 140), (90, 140)])}]}},
    "rules": [
        {"where": {"kind": "a"}, "maxScale": 1000, "style": {"fill": "#c00000"}},
        {"style": {"fill": "#0050c0"}}]})
c.golden = {"scales": [499, 500, 1000, 2000, 2001]}
cases.append(c)

# Pixel ratio: the same frame at 1x and 2x.
c = Case("pixel-ratio", 160, 110)
c.graphics("scene", [
    (c.poly([(10, 10), (90, 10), (90, 60), (10, 60)]), {"fill": "#a8dadc", "stroke": "#1d3557", "strokeWidth": 1.5}),
    (c.line([(10, 90), (60, 70), (110, 95), (150, 20)]), {"stroke": "#e63946", "strokeWidth": 3, "lineJoin": "round", "lineCap": "round"}),
    (c.line([(100, 10), (150, 60)]), {"stroke": "#000000", "strokeWidth": 0.5, "strokeDash": [4, 2]}),
    (c.point(125, 80), {"marker": {"shape": "pin", "size": 14, "fill": "#e76f51", "stroke": "#ffffff", "strokeWidth": 1}}),
])
c.golden["pixelRatios"] = [1, 2]
cases.append(c)

# Markers: every shape; fill only, fill and stroke, opacity, offset.
c = Case("markers", 260, 130)
items = []
for i, shape in enumerate(["circle", "square", "triangle", "cross", "pin"]):
    x = 30 + i * 50
    items.append((c.point(x, 25), {"marker": {"shape": shape, "size": 20, "fill": "#2a9d8f"}}))
    items.append((c.point(x, 60), {"marker": {"shape": shape, "size": 20, "fill": "#e9c46a", "stroke": "#264653", "strokeWidth": 2}}))
    items.append((c.point(x, 95), {"marker": {"shape": shape, "size": 20, "fill": "#e76f51", "stroke": "#000000", "strokeWidth": 2, "opacity": 0.5, "offset": [6, 6]}}))
    items.append((c.point(x, 95), {"marker": {"shape": "circle", "size": 2, "fill": "#000000"}}))
c.graphics("markers", items)
cases.append(c)

# Geometry far outside the frame: clipped before rasterising, drawn exactly.
c = Case("far-geometry", 200, 120)
c.graphics("far", [
    (c.poly([(-200000, -50000), (100, 60), (-200000, 300000)]), {"fill": "#90be6d"}),
    (c.line([(-500000, 100), (500000, 20)]), {"stroke": "#f94144", "strokeWidth": 4, "strokeDash": [10, 6]}),
    (c.poly([(150, 10), (190, 10), (190, 110), (150, 110)], [(160, 20), (180, 20), (180, 100), (160, 100)]),
     {"fill": "#577590"}),
    (c.line([(300100, -299940), (-299900, 300060)]), {"stroke": "#000000", "strokeWidth": 1.5}),
])
cases.append(c)

# ---------------------------------------------------------------------------
# Text: annotation, labels, halos, fonts, marker icons (issue 3, item 7).
# The Swift assertions on these scenes are in Tests/GoldenTests/TextGoldenTests.swift.


def feature(geometry, **props):
    return {"type": "Feature", "properties": props, "geometry": geometry}


def collection(features):
    return {"type": "FeatureCollection", "features": features}


def features_layer(case, lid, feats, **extra):
    layer = {"id": lid, "type": "features", "source": {"data": collection(feats)}}
    layer.update(extra)
    case.layers.append(layer)
    return layer


# Utility: a gas network designed at 1:1000 (400 x 300) with valve icons and an
# annotation layer whose "Open" class shows from 1:500 to 1:2000 and whose
# "Closed" class shows at every scale. Central annotations (design x 130..270,
# y 100..200) are inside the frame at every scale down to 1:400; the "far" ones
# (x 20 and 380) only from 1:1000 outwards. "HP LINE" and "H" are isolated,
# unrotated capitals whose ink the tests measure.
c = Case("utility", 400, 300, scale=1000, background="#fbfaf7")
c.graphics("pipes", [
    (c.line([(10, 150), (390, 150)]), {"stroke": "#d4a017", "strokeWidth": 3}),
    (c.line([(150, 150), (150, 40)]), {"stroke": "#d4a017", "strokeWidth": 2}),
    (c.line([(230, 150), (230 + 0.866 * 150, 150 - 0.5 * 150)]), {"stroke": "#d4a017", "strokeWidth": 2}),
    (c.line([(180, 150), (180, 290)]), {"stroke": "#d4a017", "strokeWidth": 1.5, "strokeDash": [6, 3]}),
])
features_layer(c, "valves", [
    feature(c.point(x, y), id=f"V-{i + 101}")
    for i, (x, y) in enumerate([(150, 150), (150, 115), (205, 150), (256, 135), (180, 185), (25, 150), (375, 150)])
], style={"marker": {"icon": "../icons/valve.png", "size": 12}})
anno = [
    # text, status, (x, y), angle
    ("V-101", "Open", (150, 163), 0),
    ("V-102", "Closed", (161, 115), 90),
    ("V-103", "Open", (205, 137), 0),
    ("V-104", "Closed", (251, 126.3), 30),
    ("V-105", "Open", (191, 190), -90),
    ("HP LINE", "Closed", (240, 185), 0),
    ("H", "Closed", (140, 188), 0),
    ("V-106", "Open", (25, 137), 0),
    ("V-108", "Open", (20, 60), 0),
    ("V-107", "Closed", (375, 163), 0),
]
c.layers.append({
    "id": "valve-anno", "type": "annotation",
    "source": {"data": collection([feature(c.point(x, y), text=t, status=s, angle=a) for t, s, (x, y), a in anno])},
    "textField": "text", "angleField": "angle", "referenceScale": 1000,
    "sublayers": [
        {"id": "Open", "where": {"status": "Open"}, "minScale": 2000, "maxScale": 500,
         "style": {"size": 10, "color": "#1a7f37"}},
        {"id": "Closed", "where": {"status": "Closed"},
         "style": {"size": 10, "color": "#cc0000", "halo": {"color": "#ffffff", "width": 1}}}]})
c.golden = {"scales": [400, 500, 1000, 2000, 2001, 4000]}
cases.append(c)

# Indoor: two floors. Rooms carry "level" 1 (a number), "2" (a string) or none
# (the core, on every floor); points of interest likewise, labelled in Chinese
# and English (DejaVu Sans with Droid Sans Fallback for the CJK glyphs).
c = Case("indoor", 420, 300, scale=500, background="#eeeeee")
room = lambda x0, y0, x1, y1: c.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
features_layer(c, "rooms", [
    feature(room(20, 20, 150, 140), name="Café", level=1),
    feature(room(150, 20, 270, 140), name="Shop", level=1),
    feature(room(20, 160, 150, 280), name="Toilets", level=1),
    feature(room(20, 20, 200, 140), name="Meeting A", level="2"),
    feature(room(200, 20, 400, 140), name="Office", level="2"),
    feature(room(280, 160, 400, 280), name="Core"),
], floorField="level", rules=[
    {"where": {"level": 1}, "style": {"fill": "#fde2b8", "stroke": "#8a6d3b", "strokeWidth": 1.5}},
    {"where": {"level": "2"}, "style": {"fill": "#c9e4f5", "stroke": "#3b6d8a", "strokeWidth": 1.5}},
    {"style": {"fill": "#d8d8d8", "stroke": "#555555", "strokeWidth": 2}}])
label = {"field": "name", "size": 13, "color": "#222222", "halo": {"color": "#ffffff", "width": 1.5}, "anchors": ["top", "bottom"], "offset": [0, 5]}
features_layer(c, "pois", [
    feature(c.point(85, 80), name="咖啡厅", level=1),
    feature(c.point(210, 80), name="Café", level=1),
    feature(c.point(85, 220), name="洗手间 Toilets"),
    feature(c.point(340, 220), name="出口 Exit", level=1),
    feature(c.point(110, 80), name="会议室 A", level=2),
], floorField="level", style={"marker": {"shape": "circle", "size": 8, "fill": "#e76f51", "stroke": "#ffffff", "strokeWidth": 1.5},
                              "label": label})
c.golden = {"scales": [500], "floors": ["1", "2"]}
cases.append(c)


# Label collision: 300 labelled points on a jittered grid, each with four
# anchors; classes A (priority 2), B (1), C (0) and O (0, allowOverlap: true);
# 30 unlabelled points between them carry a square marker with "collides": true.
class LCG:
    def __init__(self, seed):
        self.s = seed

    def next(self):
        self.s = (self.s * 1103515245 + 12345) % 2147483648
        return self.s / 2147483648


c = Case("label-collision", 600, 400, background="#f7f7f2")
rng = LCG(20240607)
pts = []
for j in range(15):
    for i in range(20):
        x = 15 + i * 30 + (rng.next() - 0.5) * 12
        y = 14 + j * 26.5 + (rng.next() - 0.5) * 12
        r = rng.next()
        cls = "A" if r < 0.12 else "B" if r < 0.4 else "O" if r < 0.48 else "C"
        pts.append((x, y, cls, f"{cls}{len(pts)}"))
for k in range(30):
    x = 30 + (k % 6) * 90 + (rng.next() - 0.5) * 10
    y = 27 + (k // 6) * 79.5 + (rng.next() - 0.5) * 10
    pts.append((x, y, "M", None))
dot = {"shape": "circle", "size": 4, "fill": "#333333"}
anchors = ["left", "right", "bottom", "top"]
lab = lambda color, prio, **k: dict({"field": "name", "size": 10, "color": color, "anchors": anchors, "priority": prio}, **k)
features_layer(c, "points", [feature(c.point(x, y), name=n, cls=cl) if n else feature(c.point(x, y), cls=cl) for x, y, cl, n in pts], rules=[
    {"where": {"cls": "A"}, "style": {"marker": dot, "label": lab("#b00020", 2, size=12, halo={"color": "#ffffff", "width": 1})}},
    {"where": {"cls": "B"}, "style": {"marker": dot, "label": lab("#1d3557", 1)}},
    {"where": {"cls": "M"}, "style": {"marker": {"shape": "square", "size": 10, "fill": "#2a9d8f", "collides": True}}},
    {"where": {"cls": "O"}, "style": {"marker": dot, "label": lab("#7b2cbf", 0, allowOverlap=True)}},
    {"style": {"marker": dot, "label": lab("#555555", 0, size=9)}}])
cases.append(c)

# Rotated annotation: align x baseline at angle 0 (top block), then angles 0,
# 30, 90, 180 and -45 with mixed alignments; a red dot and hairline cross mark
# each anchor; the last text has a halo over a dark band.
c = Case("rotated-annotation", 640, 460, scale=1000)
texts = []
for i, al in enumerate(["left", "center", "right"]):
    for j, bl in enumerate(["top", "middle", "bottom"]):
        texts.append((f"{al} / {bl}", al, bl, (110 + i * 210, 35 + j * 50), 0))
rot = [(0, "center", "middle", 75, 245), (30, "left", "bottom", 170, 245), (90, "center", "middle", 300, 245),
       (180, "right", "top", 370, 245), (-45, "left", "middle", 500, 245),
       (0, "right", "bottom", 140, 380), (30, "center", "middle", 230, 380), (90, "left", "top", 330, 380),
       (180, "center", "bottom", 440, 380), (-45, "right", "top", 600, 380)]
for a, al, bl, x, y in rot:
    texts.append((f"{a}° {al}/{bl}", al, bl, (x, y), a))
c.graphics("band", [(c.poly([(330, 420), (640, 420), (640, 450), (330, 450)]), {"fill": "#264653"})])
c.graphics("guides", [
    g for _, _, _, (x, y), _ in texts for g in [
        (c.line([(x - 12, y), (x + 12, y)]), {"stroke": "#9ab", "strokeWidth": 0.5}),
        (c.line([(x, y - 12), (x, y + 12)]), {"stroke": "#9ab", "strokeWidth": 0.5})]])
subl = []
for al in ["left", "center", "right"]:
    for bl in ["top", "middle", "bottom"]:
        subl.append({"id": f"{al}-{bl}", "where": {"align": al, "baseline": bl},
                     "style": {"size": 13, "color": "#1d3557", "align": al, "baseline": bl}})
subl.append({"id": "halo", "where": {"align": "halo"},
             "style": {"size": 16, "color": "#264653", "align": "center", "baseline": "middle", "halo": {"color": "#ffd166", "width": 2}}})
feats = [feature(c.point(x, y), text=t, align=al, baseline=bl, angle=a) for t, al, bl, (x, y), a in texts]
feats.append(feature(c.point(485, 435), text="Halo 2 px at -10°", align="halo", baseline="-", angle=-10))
c.layers.append({"id": "anno", "type": "annotation", "source": {"data": collection(feats)},
                 "textField": "text", "angleField": "angle", "referenceScale": 1000, "sublayers": subl})
c.graphics("anchors", [(c.point(x, y), {"marker": {"shape": "circle", "size": 4, "fill": "#e63946"}})
                       for _, _, _, (x, y), _ in texts + [(None, None, None, (485, 435), None)]])
cases.append(c)

# Halos: widths 0, 1, 2, 4 (rows) at sizes 8, 12, 16, 24 (columns) in four
# colours over stripes; multi-line labels anchored top-left, center and
# bottom-right. A black dot marks each label's point.
c = Case("halos", 480, 360)
c.graphics("stripes", [
    (c.poly([(0, y), (480, y), (480, y + 6), (0, y + 6)]), {"fill": "#2a9d8f" if k % 2 == 0 else "#e9c46a"})
    for k, y in enumerate(range(0, 360, 12))] + [
    (c.line([(x, 0), (x - 200, 360)]), {"stroke": "#264653", "strokeWidth": 3}) for x in range(40, 720, 60)])
colours = ["#000000", "#ffffff", "#c1121f", "#003049"]
halo_colours = ["#ffffff", "#000000", "#ffffff", "#fdf0d5"]
feats = []
for row, hw in enumerate([0, 1, 2, 4]):
    for col, size in enumerate([8, 12, 16, 24]):
        feats.append(feature(c.point(20 + col * 95 + (col * col * 4), 30 + row * 55), name=f"Halo {hw}", hw=hw, size=size))
multi = [("top-left", (30, 255)), ("center", (240, 290)), ("bottom-right", (450, 330))]
for anchor, (x, y) in multi:
    feats.append(feature(c.point(x, y), name="Line one\nLine two", multi=anchor))
rules = []
for anchor, _ in multi:
    rules.append({"where": {"multi": anchor}, "style": {"marker": {"shape": "circle", "size": 5, "fill": "#e63946", "stroke": "#ffffff", "strokeWidth": 1},
                  "label": {"field": "name", "size": 16, "color": "#1d3557", "halo": {"color": "#ffffff", "width": 2}, "anchors": [anchor], "allowOverlap": True}}})
for row, hw in enumerate([0, 1, 2, 4]):
    for col, size in enumerate([8, 12, 16, 24]):
        style = {"field": "name", "size": size, "color": colours[col], "anchors": ["left"], "offset": [4, 0], "allowOverlap": True}
        if hw:
            style["halo"] = {"color": halo_colours[col], "width": hw}
        rules.append({"where": {"hw": hw, "size": size}, "style": {"marker": {"shape": "circle", "size": 4, "fill": "#000000"}, "label": style}})
features_layer(c, "labels", feats, rules=rules)
cases.append(c)

# Icons: valve.png (32 x 32) at sizes 8, 16, 32, 48 and its natural size,
# at opacity 0.5 over a band, moved by an offset, and pin.png (24 x 36) with its
# tip put on the point by an offset; red dots mark the points. At 1x and 2x.
c = Case("icons", 360, 200)
c.graphics("band", [(c.poly([(0, 120), (360, 120), (360, 160), (0, 160)]), {"fill": "#457b9d"})])
icon_items = []
for i, s in enumerate([8, 16, 32, 48]):
    icon_items.append(((30 + i * 60, 50), {"icon": "valve.png", "size": s}))
icon_items += [
    ((290, 50), {"icon": "valve.png"}),
    ((40, 140), {"icon": "valve.png", "size": 32, "opacity": 0.5}),
    ((110, 140), {"icon": "valve.png", "size": 32, "offset": [12, -12]}),
    ((200, 140), {"icon": "pin.png"}),
    ((260, 160), {"icon": "pin.png", "offset": [0, -18]}),
    ((320, 160), {"icon": "pin.png", "size": 24, "offset": [0, -12], "opacity": 0.8}),
]
c.graphics("icons", [(c.point(x, y), {"marker": m}) for (x, y), m in icon_items])
c.graphics("points", [(c.point(x, y), {"marker": {"shape": "circle", "size": 3, "fill": "#e63946"}}) for (x, y), _ in icon_items])
c.golden["pixelRatios"] = [1, 2]
cases.append(c)


# ---------------------------------------------------------------------------
# View annotations (issue 4, item 7): boxes of fixed screen size drawn above
# the map, tied to a coordinate or a feature (scene format section 4). The
# Swift assertions on these scenes are in Tests/GoldenTests/ViewAnnotationTests.swift.


class VACase(Case):
    """A case with a `viewAnnotations` list (written after `layers`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.annotations = []

    def at(self, x, y):
        return lonlat(x, y, self.w, self.h, self.scale)

    def annotate(self, aid, text, x=None, y=None, feature=None, **extra):
        a = {"id": aid}
        if feature is not None:
            a["feature"] = feature
        else:
            a["coordinate"] = self.at(x, y)
        a["text"] = text
        a.update(extra)
        self.annotations.append(a)
        return a

    def write(self):
        d = os.path.join("Golden", self.name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "scene.json"), "w") as f:
            json.dump({"version": 1, "map": self.map, "layers": self.layers, "viewAnnotations": self.annotations}, f, indent=1)
            f.write("\n")
        with open(os.path.join(d, "golden.json"), "w") as f:
            json.dump(self.golden, f)
            f.write("\n")


def cross(case, x, y, arm=14, colour="#e63946"):
    """A hairline cross and a dot marking a point."""
    return [
        (case.line([(x - arm, y), (x + arm, y)]), {"stroke": colour, "strokeWidth": 0.75}),
        (case.line([(x, y - arm), (x, y + arm)]), {"stroke": colour, "strokeWidth": 0.75}),
        (case.point(x, y), {"marker": {"shape": "circle", "size": 4, "fill": colour}}),
    ]


ANCHORS = ["center", "top", "bottom", "left", "right", "top-left", "top-right", "bottom-left", "bottom-right"]
UNIT = {"center": (0.5, 0.5), "top": (0.5, 0), "bottom": (0.5, 1), "left": (0, 0.5), "right": (1, 0.5),
        "top-left": (0, 0), "top-right": (1, 0), "bottom-left": (0, 1), "bottom-right": (1, 1)}

# Anchors: the nine anchors, one annotation each at its own point (text = the
# anchor's name), laid out so every box points away from the middle of its
# 3 x 3 grid (`right` boxes, left of their point, in the left column; `bottom`
# boxes, above their point, in the top row). Left grid without offsets (white
# boxes); right grid with offsetX 10, offsetY 10 (yellow boxes: 10 px right
# and 10 px UP of the anchor position). A red cross marks each point.
c = VACase("va-anchors", 800, 300)
marks = []
for g, (x0, extra, bg) in enumerate([(110, {}, "#ffffff"), (530, {"offsetX": 10, "offsetY": 10}, "#fff3c4")]):
    for name in ANCHORS:
        ux, uy = UNIT[name]
        x = x0 + 80 * round(2 * (1 - ux))
        y = 60 + 90 * round(2 * (1 - uy))
        marks += cross(c, x, y)
        c.annotate(("o-" if extra else "a-") + name, name, x, y, anchors=[dict({"anchor": name}, **extra)],
                   style={"background": bg, "fontSize": 11})
c.graphics("points", marks)
cases.append(c)

# Priority: (1) one point, centre anchors, priorities 1, 3, 2: priority 3 wins;
# a priority-0 allowOverlap box (yellow) is placed too but drawn below it;
# (2) `selected` (priority 0) beats priority 5; (3) equal priority: the earlier
# in the list wins; (4) variable anchors at one point, 14 px above, below and
# 10 px beside it: v1 [bottom] is placed, v2 [bottom, top] takes top, v3
# [bottom, top, left] left, v4 [.., right] right (none of them overlap), v5
# [bottom, top, center] has none free; (5) stacking: a row of five
# allowOverlap boxes, each overlapping its neighbours by 20 px, drawn with
# unselected below selected (b over a and over c, priority 2), lower priority
# below higher (c over d), equal priority later in the list on top (d over e,
# e being listed before d); a sixth without allowOverlap collides with them.
c = VACase("va-priority", 640, 360, background="#f4f4f0")
pts = [(90, 70), (270, 70), (450, 70), (110, 210)]
c.graphics("points", [g for x, y in pts for g in cross(c, x, y)] + [g for x in (250, 300, 350, 400, 450) for g in cross(c, x, 300, arm=6)])
x, y = pts[0]
c.annotate("p1", "priority 1", x, y, priority=1)
c.annotate("p3", "priority 3", x, y, priority=3, style={"background": "#d8f3dc"})
c.annotate("p2", "priority 2", x, y, priority=2)
c.annotate("p0-overlap", "overlap 0", x, y, allowOverlap=True, anchors=[{"anchor": "center", "offsetX": 26, "offsetY": -12}],
           style={"background": "#ffd166"})
x, y = pts[1]
c.annotate("prio5", "priority 5", x, y, priority=5)
c.annotate("sel", "selected", x, y, selected=True, style={"background": "#ffccd5", "borderColor": "#c9184a", "borderWidth": 2})
x, y = pts[2]
c.annotate("first", "first (1)", x, y, priority=1)
c.annotate("second", "second (1)", x, y, priority=1)
x, y = pts[3]
va = [{"anchor": "bottom", "offsetY": 14}, {"anchor": "top", "offsetY": -14}, {"anchor": "left", "offsetX": 10},
      {"anchor": "right", "offsetX": -10}]
for k in range(4):
    c.annotate(f"v{k + 1}", f"v{k + 1} {va[k]['anchor']}", x, y, anchors=va[:k + 1])
c.annotate("v5", "v5 none", x, y, anchors=va[:2] + [{"anchor": "center"}])
stack = [  # id, x, colour, extra; listed a, b, c, e, d
    ("st-a", 250, "#95d5b2", {"priority": 1}),
    ("st-b", 300, "#e63946", {"selected": True}),
    ("st-c", 350, "#4895ef", {"priority": 2}),
    ("st-e", 450, "#ffb703", {"priority": 1}),
    ("st-d", 400, "#b5179e", {"priority": 1}),
]
for aid, x, colour, extra in stack:
    c.annotate(aid, aid[-1], x, 300, size=[70, 36], allowOverlap=True, style={"background": colour, "textColor": "#ffffff"}, **extra)
c.annotate("st-f", "f", 300, 300, size=[40, 20])
cases.append(c)

# Edges: all boxes must lie wholly inside the frame (400 x 300); touching the
# border is inside. At the centre (200, 150), where the arithmetic is exact:
# touch-frame (200 x 30, top-left) touches the right border; touch-a and
# touch-b touch it and each other along an edge; corner sits in the top-left
# corner (offsets -200, +150); bottom-edge touches the bottom border; cross-1px
# reaches 1 px past the left border (outOfBounds). flip-left and flip-top would
# cross the border with their first anchor and take their second; no-fit has
# no anchor that fits, too-big is wider than the frame, outside lies right of
# the frame and outside-near just left of it, its box (moved 30 px right) inside.
c = VACase("va-edges", 400, 300, background="#eef2f3")
c.graphics("frame", [(c.poly([(0.5, 0.5), (399.5, 0.5), (399.5, 299.5), (0.5, 299.5)]), {"stroke": "#94a3b8", "strokeWidth": 1})])
c.graphics("points", [g for x, y in [(200, 150), (12, 80), (300, 10), (390, 60), (200, 250)] for g in cross(c, x, y, arm=8)])
def at_centre(aid, text, size, anchor, **k):
    a = {"id": aid, "coordinate": [0, 0], "text": text, "size": size, "anchors": [dict({"anchor": anchor}, **k)]}
    c.annotations.append(a)
at_centre("touch-frame", "touches the right border", [200, 30], "top-left")
at_centre("touch-a", "touch-a", [80, 30], "top-right")
at_centre("touch-b", "touch-b", [80, 30], "bottom-right")
at_centre("corner", "corner", [60, 30], "top-left", offsetX=-200, offsetY=150)
at_centre("bottom-edge", "bottom edge", [80, 20], "bottom", offsetY=-150)
at_centre("cross-1px", "1 px out", [60, 30], "top-left", offsetX=-201, offsetY=-60)
c.annotate("flip-left", "flip left", 12, 80, anchors=[{"anchor": "right"}, {"anchor": "left"}])
c.annotate("flip-top", "flip top", 300, 10, anchors=[{"anchor": "bottom"}, {"anchor": "top"}])
c.annotate("no-fit", "no room", 390, 60, anchors=[{"anchor": a} for a in ["left", "top-left", "bottom-left"]])
c.annotate("too-big", "too big", 200, 250, size=[401, 20])
c.annotate("outside", "outside", 430, 100)
c.annotate("outside-near", "position outside", -4, 230, anchors=[{"anchor": "left", "offsetX": 30}])
cases.append(c)

# Features: annotations tied to features (scene format section 4). Map floor 1.
# areas (idField "ref", floorField "level"): rect-cut runs past the right
# border (interior point of its visible part), "L" is concave (its bounding
# box's centre is outside it), 7 is a number id; "minor" is taken only by a
# rule with minScale 1000 (not drawn at 1:2000), "upstairs" is on level 2,
# "away" lies wholly outside the frame. roads (GeoJSON ids): 42 leaves and
# re-enters the frame (two visible runs, 190 and 280 px: the annotation sits
# 140 px along the longer, at (360, 110)); "ml" is a MultiLineString whose
# longer part (100 px) holds it at (250, 60). pois (idField "ref"): "P1" and
# the number 5, referenced as "5". marks: graphics with ids marks-0 and
# marks-1 (floor 2). hidden: a layer with visible false.
c = VACase("va-features", 500, 340, background="#f6f5f0")
c.map["floor"] = 1
areas = [
    feature(c.poly([(380, 220), (560, 220), (560, 320), (380, 320)]), ref="rect-cut", kind="area", level=1),
    feature(c.poly([(30, 180), (150, 180), (150, 220), (70, 220), (70, 320), (30, 320)]), ref="L", kind="area"),
    feature(c.poly([(200, 250), (260, 250), (260, 310), (200, 310)]), ref=7, kind="area", level="1"),
    feature(c.poly([(300, 250), (340, 250), (340, 290), (300, 290)]), ref="minor", kind="minor"),
    feature(c.poly([(300, 180), (340, 180), (340, 220), (300, 220)]), ref="upstairs", kind="area", level=2),
    feature(c.poly([(560, 30), (600, 30), (600, 60), (560, 60)]), ref="away", kind="area"),
]
features_layer(c, "areas", areas, idField="ref", floorField="level", rules=[
    {"where": {"kind": "minor"}, "minScale": 1000, "style": {"fill": "#adb5bd"}},
    {"where": {"kind": "area"}, "style": {"fill": "#cfe8cf", "stroke": "#588157", "strokeWidth": 1}}])
road42 = [(-100, 40), (150, 40), (150, -100), (330, -100), (330, 110), (620, 110)]
roads = [
    dict(feature(c.line(road42)), id=42),
    dict(feature({"type": "MultiLineString", "coordinates": [c.ll([(170, 140), (250, 140)]), c.ll([(200, 60), (300, 60)])]}), id="ml"),
]
features_layer(c, "roads", roads, style={"stroke": "#f4a261", "strokeWidth": 4, "lineJoin": "round"})
features_layer(c, "pois", [feature(c.point(440, 40), ref="P1"), feature(c.point(80, 90), ref=5)], idField="ref",
               style={"marker": {"shape": "circle", "size": 7, "fill": "#1d3557", "stroke": "#ffffff", "strokeWidth": 1}})
c.layers.append({"id": "marks", "type": "graphics", "graphics": [
    {"id": "marks-0", "geometry": c.point(260, 200), "style": {"marker": {"shape": "square", "size": 8, "fill": "#6a4c93"}}},
    {"id": "marks-1", "geometry": c.point(120, 150), "style": {"marker": {"shape": "square", "size": 8, "fill": "#6a4c93"}}, "floor": 2}]})
features_layer(c, "hidden", [feature(c.point(420, 170), ref="h1")], idField="ref", visible=False,
               style={"marker": {"shape": "circle", "size": 8, "fill": "#000000"}})
fref = lambda layer, fid: {"layer": layer, "id": fid}
c.annotations += [
    {"id": "on-P1", "feature": fref("pois", "P1"), "text": "P1", "anchors": [{"anchor": "bottom", "offsetY": 4}]},
    {"id": "on-5", "feature": fref("pois", "5"), "text": "five", "anchors": [{"anchor": "bottom", "offsetY": 4}]},
    {"id": "on-42", "feature": fref("roads", 42), "text": "road 42", "style": {"background": "#fde2c4"}},
    {"id": "on-ml", "feature": fref("roads", "ml"), "text": "ml"},
    {"id": "on-rect", "feature": fref("areas", "rect-cut"), "text": "rect"},
    {"id": "on-L", "feature": fref("areas", "L"), "text": "L", "style": {"fontSize": 10, "padding": 3}},
    {"id": "on-7", "feature": fref("areas", 7), "text": "seven"},
    {"id": "on-g", "feature": fref("marks", "marks-0"), "text": "marks-0", "anchors": [{"anchor": "top", "offsetY": -6}]},
    {"id": "on-minor", "feature": fref("areas", "minor"), "text": "minor"},
    {"id": "on-upstairs", "feature": fref("areas", "upstairs"), "text": "upstairs"},
    {"id": "on-g-floor2", "feature": fref("marks", "marks-1"), "text": "marks-1"},
    {"id": "on-missing", "feature": fref("pois", "nope"), "text": "nope"},
    {"id": "on-hidden-layer", "feature": fref("hidden", "h1"), "text": "h1"},
    {"id": "on-away", "feature": fref("areas", "away"), "text": "away"},
]
cases.append(c)

# Floors and scales: designed at 1:1000, recorded at 1:1000 and 1:2001 on
# floors 1 and 2. Top row: floor 2 (a number), floor "2" (a string), floor 1;
# middle: no floor, "open" (maxScale 500, minScale 2000: 1:1000 yes, 1:2001
# no), "zoomed-out" (maxScale 1500: 1:2001 only); bottom: "zoomed-in"
# (minScale 1500: 1:1000 only), floor 1 with minScale 2000, and visible false.
# A floor-1 (orange) or floor-2 (blue) band behind shows the floor.
c = VACase("va-floors-scales", 400, 260, scale=1000)
c.layers.append({"id": "floor-bands", "type": "graphics", "graphics": [
    {"id": "band-1", "geometry": c.poly([(0, 0), (400, 0), (400, 20), (0, 20)]), "style": {"fill": "#f4a261"}, "floor": 1},
    {"id": "band-2", "geometry": c.poly([(0, 0), (400, 0), (400, 20), (0, 20)]), "style": {"fill": "#4895ef"}, "floor": "2"}]})
grid = [(x, y) for y in (60, 130, 200) for x in (80, 200, 320)]
c.graphics("points", [g for x, y in grid for g in cross(c, x, y, arm=5)])
specs = [
    ("floor-2-num", "f2", {"floor": 2}),
    ("floor-2-str", "f\"2\"", {"floor": "2"}),
    ("floor-1", "f1", {"floor": 1}),
    ("all-floors", "all", {}),
    ("open", "500-2000", {"maxScale": 500, "minScale": 2000}),
    ("zoomed-out", ">=1500", {"maxScale": 1500}),
    ("zoomed-in", "<=1500", {"minScale": 1500}),
    ("floor-1-open", "f1 <=2000", {"floor": 1, "minScale": 2000}),
    ("invisible", "hidden", {"visible": False}),
]
for (aid, text, extra), (x, y) in zip(specs, grid):
    c.annotate(aid, text, x, y, style={"fontSize": 10, "padding": 4}, **extra)
c.golden = {"scales": [1000, 2001], "floors": ["1", "2"]}
cases.append(c)

# Crowded: 300 annotations at seeded random positions with 1-4 anchors each,
# priorities 0-3 (background by priority), every 50th selected (red border)
# and every 25th (not selected) allowOverlap (dashed look: grey text).
c = VACase("va-crowded", 600, 400, background="#f7f7f2")
rng = LCG(20250412)
backgrounds = ["#ffffff", "#e9f5db", "#caf0f8", "#ffe5ec"]
crowd_pts = []
for i in range(300):
    x = 8 + rng.next() * 584
    y = 8 + rng.next() * 384
    n = 1 + int(rng.next() * 4)
    pool = list(ANCHORS)
    chosen = []
    for _ in range(n):
        chosen.append(pool.pop(int(rng.next() * len(pool))))
    prio = int(rng.next() * 4)
    style = {"background": backgrounds[prio], "fontSize": 9, "padding": 3}
    extra = {"priority": prio}
    if i % 50 == 7:
        extra["selected"] = True
        style.update({"borderColor": "#d00000", "borderWidth": 2})
    elif i % 25 == 11:
        extra["allowOverlap"] = True
        style.update({"textColor": "#6c757d"})
    c.annotate(f"c{i}", f"c{i}", x, y, anchors=[{"anchor": a} for a in chosen], style=style, **extra)
    crowd_pts.append((x, y))
c.graphics("points", [(c.point(x, y), {"marker": {"shape": "circle", "size": 3, "fill": "#333333"}}) for x, y in crowd_pts])
cases.append(c)

# Palette output (PNG8, 16 colours): short 1-px hairlines of four colours,
# on whole pixel rows and columns, over sixteen map fills (stripes) that
# already ask for all 16 entries, and a disc with anti-aliased edges. k-means
# alone would spend the entries on the fills and lose the lines; thin-line
# protection keeps each line's colour (PaletteGoldenTests checks it pixel by
# pixel) at the cost of merging the closest fills.
c = Case("palette-hairlines", 240, 160, background="#f2efe9")
c.golden["palette"] = 16
fills = ["#f2efe9", "#e3dcd2", "#c8e6a0", "#aad3df", "#d9d0c9", "#f6b26b", "#add19e", "#fff5b0",
         "#c9b29b", "#e6cce6", "#9fc7e8", "#ffd4a0", "#c6c6c6", "#8fbf8f", "#f0a0a0", "#b0a0d0"]
c.graphics("stripes", [(c.poly([(i * 15, 0), (i * 15 + 15, 0), (i * 15 + 15, 160), (i * 15, 160)]), {"fill": f})
                       for i, f in enumerate(fills)])
c.graphics("disc", [(c.poly(disc(120, 80, 18)), {"fill": "#3a86ff"})])
items = []
for i, colour in enumerate(["#6a8f4f", "#c0504d", "#4f81bd", "#8064a2"]):
    y = 20.5 + i * 35
    items.append((c.line([(60 * i + 5, y), (60 * i + 55, y)]), {"stroke": colour, "strokeWidth": 1}))
    x = 60 * i + 40.5
    items.append((c.line([(x, 100), (x, 150)]), {"stroke": colour, "strokeWidth": 1}))
c.graphics("hairlines", items)
cases.append(c)


for c in cases:
    c.write()
print("wrote", ", ".join(c.name for c in cases))
