// JPEG (libjpeg-turbo) and WebP (libwebp) encoders for the static map
// server's outputs. Both take straight-alpha RGBA rows; the JPEG encoder
// composites them over white, since JPEG has no alpha.
#ifndef MAPSNAP_SERVE_SHIMS_H
#define MAPSNAP_SERVE_SHIMS_H
#include <stddef.h>
#include <stdint.h>

/// Encodes `width`×`height` RGBA pixels (`stride` bytes a row) as a baseline
/// JPEG of `quality` (1–100), 4:2:0 chroma. On success returns 0 and sets
/// `*out` (free with `mapsnap_serve_free`) and `*size`; on failure returns -1
/// and writes libjpeg's message into `message` (`capacity` bytes).
int mapsnap_jpeg_encode(const uint8_t *rgba, int width, int height, int stride, int quality,
                        uint8_t **out, size_t *size, char *message, size_t capacity);

/// Encodes RGBA pixels as WebP: lossless when `quality` is negative, else
/// lossy at `quality` (0–100). Returns 0 and sets `*out` / `*size`, or -1.
int mapsnap_webp_encode(const uint8_t *rgba, int width, int height, int stride, float quality,
                        uint8_t **out, size_t *size);

/// Frees what an encoder returned.
void mapsnap_jpeg_free(uint8_t *p);
void mapsnap_webp_free(uint8_t *p);

#endif
