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

for c in cases:
    c.write()
print("wrote", ", ".join(c.name for c in cases))
