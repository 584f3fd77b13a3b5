"""Writes the synthetic raster-dem tiles of the terrain goldens: zoom 12,
columns and rows 2047-2048 (the four tiles about 0°, 0°), 128 px
each, Mapbox Terrain-RGB. The ground is a Gaussian hill north-west of the
centre, a ridge running south-east and a basin below sea level, so that
hillshade and colour relief show every slope direction and the tile seams.
Run from this folder: python3 make_dem.py"""
import math, os
from PIL import Image

SIDE = 128
Z, X0, Y0 = 12, 2047, 2047

def elevation(px, py):
    # px, py: pixels across the 2 x 2 tiles, 0..256.
    hill = 2400 * math.exp(-((px - 100) ** 2 + (py - 96) ** 2) / (2 * 38 ** 2))
    # Distance from the line px = py (the ridge), along the south-east diagonal.
    d = (px - py) / math.sqrt(2)
    ridge = 900 * math.exp(-d * d / (2 * 14 ** 2)) * min(1, max(0, (px + py - 120) / 160))
    basin = -600 * math.exp(-((px - 200) ** 2 + (py - 70) ** 2) / (2 * 24 ** 2))
    return 200 + hill + ridge + basin

for tx in range(2):
    for ty in range(2):
        img = Image.new("RGB", (SIDE, SIDE))
        pix = img.load()
        for y in range(SIDE):
            for x in range(SIDE):
                e = elevation(tx * SIDE + x + 0.5, ty * SIDE + y + 0.5)
                # Whole metres, so that the blue byte repeats and the PNG stays small.
                v = int(round(e)) * 10 + 100000
                pix[x, y] = ((v >> 16) & 255, (v >> 8) & 255, v & 255)
        path = f"{Z}/{X0 + tx}/{Y0 + ty}.png"
        os.makedirs(os.path.dirname(path), exist_ok=True)
        img.save(path, optimize=True)
