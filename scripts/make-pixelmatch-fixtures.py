#!/usr/bin/env python3
"""Writes Tests/Fixtures/pixelmatch/cases.json: image pairs and what the
reference pixelmatch (the `pixelmatch` package from PyPI, a port of
mapbox/pixelmatch 5.x) says of them: the count and the diff image. The Swift
tests compare `PixelMatch` with it exactly. Run once, commit the output:

    python3 -m pip install pixelmatch==0.3.0
    python3 scripts/make-pixelmatch-fixtures.py
"""
import base64, json, math, os, random
from pixelmatch import pixelmatch

W, H = 32, 24
rng = random.Random(20261123)


def disc(cx, cy, r, colour, background, alpha=255):
    """An anti-aliased disc (4×4 supersampling) over a flat background."""
    img = []
    for y in range(H):
        for x in range(W):
            inside = 0
            for sy in range(4):
                for sx in range(4):
                    px, py = x + (sx + 0.5) / 4, y + (sy + 0.5) / 4
                    inside += (px - cx) ** 2 + (py - cy) ** 2 <= r * r
            t = inside / 16
            img += [round(background[c] + (colour[c] - background[c]) * t) for c in range(3)]
            img.append(round(255 + (alpha - 255) * t))
    return img


def noise(seed_img, changes, amplitude):
    img = list(seed_img)
    for _ in range(changes):
        i = rng.randrange(W * H) * 4
        for c in range(3):
            img[i + c] = max(0, min(255, img[i + c] + rng.randint(-amplitude, amplitude)))
    return img


cases = []
base = disc(16, 12, 8, (30, 60, 200), (250, 245, 230))
pairs = [
    ("identical", base, list(base)),
    ("disc moved by a quarter pixel", base, disc(16.25, 12.1, 8, (30, 60, 200), (250, 245, 230))),
    ("disc moved by two pixels", base, disc(18, 12, 8, (30, 60, 200), (250, 245, 230))),
    ("disc recoloured slightly", base, disc(16, 12, 8, (34, 62, 196), (250, 245, 230))),
    ("noise, small", base, noise(base, 60, 6)),
    ("noise, large", base, noise(base, 60, 120)),
    ("translucent disc over transparent", disc(16, 12, 8, (200, 30, 30), (0, 0, 0), alpha=128),
     disc(16.5, 12, 8, (200, 30, 30), (0, 0, 0), alpha=128)),
    ("random images", [rng.randrange(256) for _ in range(W * H * 4)], [rng.randrange(256) for _ in range(W * H * 4)]),
]
for name, a, b in pairs:
    results = []
    for threshold in (0.0, 0.05, 0.1, 0.3):
        for include_aa in (False, True):
            out = [0] * (W * H * 4)
            n = pixelmatch(a, b, W, H, out, threshold=threshold, includeAA=include_aa)
            results.append({"threshold": threshold, "includeAA": include_aa, "differing": n,
                            "diff": base64.b64encode(bytes(int(v) for v in out)).decode()})
    cases.append({"name": name, "a": base64.b64encode(bytes(a)).decode(), "b": base64.b64encode(bytes(b)).decode(),
                  "results": results})

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(root, "Tests/Fixtures/pixelmatch/cases.json"), "w") as f:
    json.dump({"width": W, "height": H, "reference": "pixelmatch 0.3.0 (PyPI)", "cases": cases}, f, indent=0)
print(len(cases), "cases")
