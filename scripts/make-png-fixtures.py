#!/usr/bin/env python3
"""Writes the PNG fixtures of Tests/Fixtures/png/ (PNGRowReaderTests).

Only the standard library (zlib, struct): no Pillow. For every colour type
and bit depth PNG allows, with and without tRNS where PNG allows it, plain and
Adam7-interlaced, the script writes

  NAME.png    the image, rows filtered with all five filter types in turn and
              the zlib stream split over several IDAT chunks;
  NAME.rgba   what a decoder must return for it, computed here independently
              of libpng: width * height * 4 bytes of 8-bit straight RGBA,
              with mapsnap's conversion rule (PNGDecoder): low-bit gray scaled
              up (v * 255 / (2^d - 1)), 16-bit samples scaled with rounding
              (round(v * 255 / 65535)), gray copied to R, G and B, tRNS
              turned into alpha 0 for the key colour (255 otherwise), palette
              entries past the end of tRNS opaque, A = 255 without alpha.

plus rows-stored.png: 8-bit RGB, 13x7, each row one stored (uncompressed)
deflate block in an IDAT chunk of its own, so that a test can cut the file at
a known row (and rows-stored.rgba).

The output is deterministic (fixed seeds). Run from anywhere:

  python3 scripts/make-png-fixtures.py
"""
import os
import random
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "png")

GRAY, RGB, PALETTE, GRAY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GRAY: 1, RGB: 3, PALETTE: 1, GRAY_ALPHA: 2, RGBA: 4}
KIND = {GRAY: "gray", RGB: "rgb", PALETTE: "pal", GRAY_ALPHA: "ga", RGBA: "rgba"}

# Adam7: (x start, y start, x step, y step) of passes 1...7.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Samples (ints) of one row to bytes, MSB first below 8 bits, big-endian at 16."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out = bytearray()
    per_byte = 8 // depth
    for i in range(0, len(samples), per_byte):
        byte = 0
        group = samples[i:i + per_byte]
        for j, s in enumerate(group):
            byte |= s << (8 - depth * (j + 1))
        out.append(byte)
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, prior, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prior[i]
        c = prior[i - bpp] if i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def scanlines(pixels, width, height, color_type, depth, interlaced, filter_seed):
    """The filtered image data: pixels[y][x] is a tuple of samples."""
    bpp = max(1, CHANNELS[color_type] * depth // 8)
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    data = bytearray()
    row_number = filter_seed
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, width, dx))
        ys = list(range(y0, height, dy))
        if not xs or not ys:
            continue  # an empty pass has no scanlines at all
        prior = None
        for y in ys:
            row = pack_row([s for x in xs for s in pixels[y][x]], depth)
            if prior is None:
                prior = bytes(len(row))
            data += filter_row(row_number % 5, row, prior, bpp)
            prior = row
            row_number += 1
    return bytes(data)


def scale(value, depth):
    """A sample of `depth` bits as 8 bits, mapsnap's rule."""
    if depth == 16:
        return (value * 255 + 32767) // 65535
    return value * 255 // ((1 << depth) - 1)


def expected_rgba(pixels, color_type, depth, palette, trns):
    out = bytearray()
    for row in pixels:
        for p in row:
            if color_type == PALETTE:
                r, g, b = palette[p[0]]
                a = trns[p[0]] if trns is not None and p[0] < len(trns) else 255
            elif color_type == GRAY:
                r = g = b = scale(p[0], depth)
                a = 0 if trns is not None and p[0] == trns else 255
            elif color_type == GRAY_ALPHA:
                r = g = b = scale(p[0], depth)
                a = scale(p[1], depth)
            elif color_type == RGB:
                r, g, b = (scale(s, depth) for s in p)
                a = 0 if trns is not None and tuple(p) == trns else 255
            else:
                r, g, b, a = (scale(s, depth) for s in p)
            out += bytes((r, g, b, a))
    return bytes(out)


def make_image(name, width, height, color_type, depth, with_trns, interlaced, seed):
    rng = random.Random(seed)
    top = (1 << depth) - 1
    channels = CHANNELS[color_type]
    palette = trns = None
    if color_type == PALETTE:
        size = min(1 << depth, 37)
        palette = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(size)]
        palette[0] = (0, 0, 0)
        palette[-1] = (255, 255, 255)
        top = size - 1

    # Varied samples: a random field, extremes in the first row.
    pixels = [[tuple(rng.randint(0, top) for _ in range(channels)) for _ in range(width)]
              for _ in range(height)]
    pixels[0][0] = tuple([0] * channels)
    pixels[0][-1] = tuple([top] * channels)

    if with_trns:
        if color_type == PALETTE:
            # Shorter than the palette: the last entries stay opaque.
            trns = [rng.randrange(256) for _ in range(max(1, len(palette) - 2))]
            trns[0] = 0
        elif color_type == GRAY:
            trns = rng.randint(0, top)
            for y in range(height):  # the key colour somewhere in every row
                pixels[y][(3 * y) % width] = (trns,)
        else:
            trns = tuple(rng.randint(0, top) for _ in range(3))
            for y in range(height):
                pixels[y][(3 * y) % width] = trns

    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlaced else 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if palette is not None:
        png += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        if color_type == PALETTE:
            png += chunk(b"tRNS", bytes(trns))
        elif color_type == GRAY:
            png += chunk(b"tRNS", struct.pack(">H", trns))
        else:
            png += chunk(b"tRNS", struct.pack(">HHH", *trns))
    compressed = zlib.compress(scanlines(pixels, width, height, color_type, depth, interlaced, seed), 9)
    piece = 17 + seed % 50  # several IDAT chunks of varied sizes
    for start in range(0, len(compressed), piece):
        png += chunk(b"IDAT", compressed[start:start + piece])
    png += chunk(b"IEND", b"")
    write(name, png, expected_rgba(pixels, color_type, depth, palette, trns))


def make_rows_stored():
    """8-bit RGB, 13x7: row y is one stored deflate block in IDAT chunk y."""
    width, height = 13, 7
    rng = random.Random(7)
    pixels = [[tuple(rng.randrange(256) for _ in range(3)) for _ in range(width)] for _ in range(height)]
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, RGB, 0, 0, 0))
    adler = 1
    for y in range(height):
        line = b"\x00" + pack_row([s for p in pixels[y] for s in p], 8)
        adler = zlib.adler32(line, adler)
        final = 1 if y == height - 1 else 0
        block = bytes([final]) + struct.pack("<HH", len(line), len(line) ^ 0xFFFF) + line
        data = (b"\x78\x01" if y == 0 else b"") + block
        if final:
            data += struct.pack(">I", adler)
        png += chunk(b"IDAT", data)
    png += chunk(b"IEND", b"")
    write("rows-stored", png, expected_rgba(pixels, RGB, 8, None, None))


def write(name, png, rgba):
    with open(os.path.join(OUT, name + ".png"), "wb") as f:
        f.write(png)
    with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
        f.write(rgba)


def main():
    os.makedirs(OUT, exist_ok=True)
    kinds = [
        (GRAY, [1, 2, 4, 8, 16], [False, True]),
        (GRAY_ALPHA, [8, 16], [False]),
        (RGB, [8, 16], [False, True]),
        (RGBA, [8, 16], [False]),
        (PALETTE, [1, 2, 4, 8], [False, True]),
    ]
    seed = 0
    for color_type, depths, trns_choices in kinds:
        for depth in depths:
            for with_trns in trns_choices:
                for interlaced in (False, True):
                    name = f"{KIND[color_type]}{depth}{'-trns' if with_trns else ''}{'-i' if interlaced else ''}"
                    make_image(name, 13, 7, color_type, depth, with_trns, interlaced, seed)
                    seed += 1
    # Odd sizes: empty Adam7 passes (1x1, 3x2), a row that ends mid-byte (33x5).
    for width, height in [(1, 1), (3, 2), (33, 5)]:
        for color_type, depth in [(GRAY, 1), (PALETTE, 4), (RGBA, 16)]:
            for interlaced in (False, True):
                name = f"{KIND[color_type]}{depth}-{width}x{height}{'-i' if interlaced else ''}"
                make_image(name, width, height, color_type, depth, False, interlaced, seed)
                seed += 1
    make_rows_stored()


if __name__ == "__main__":
    main()
