"""The frames of the style benchmark, the same for MapLibre Native and mapsnap.

Zooms are MapLibre's (512-pixel tiles). Every list is built in a fixed order from the data, so
both renderers draw the same views.
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STYLE = os.path.join(ROOT, "Examples/styles/bright.json")
DATA = os.path.join(ROOT, "Examples/styles/data")

# name -> (width, height, center (lon, lat), zoom): issue 39's two frames.
CASES = {
    "helsinki": (1024, 1024, (24.9443, 60.1716), 15.0),
    "world": (512, 512, (10.0, 45.0), 2.0),
}

THUMB_SIZE = 256
# Of the thumbnails, this share shows Helsinki (at its POIs, MapLibre zooms 14-17, where
# its tiles are), the rest the world (at Natural Earth's cities, zooms 1-4).
HELSINKI_SHARE = 0.8
HELSINKI_ZOOMS = (14.0, 15.0, 16.0, 17.0)
WORLD_ZOOMS = (1.0, 2.0, 3.0, 4.0)


def _points(path, limit):
    with open(path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    points = [tuple(ft["geometry"]["coordinates"][:2]) for ft in features if ft["geometry"]["type"] == "Point"]
    return points[:limit]


def thumbnails(count, shared):
    """count views as (center, zoom): Helsinki POIs first, then world cities, zooms cycling."""
    helsinki_count = int(round(count * HELSINKI_SHARE))
    pois = _points(os.path.join(shared, "data/helsinki_pois.geojson"), helsinki_count)
    cities = _points(os.path.join(shared, "data/ne_110m_cities.geojson"), count - len(pois))
    views = []
    for i, p in enumerate(pois):
        views.append((p, HELSINKI_ZOOMS[i % len(HELSINKI_ZOOMS)]))
    i = 0
    while len(views) < count:
        views.append((cities[i % len(cities)], WORLD_ZOOMS[i % len(WORLD_ZOOMS)]))
        i += 1
    return views


def default_shared():
    return os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))
