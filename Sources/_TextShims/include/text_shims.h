#ifndef MAPSNAP_TEXT_SHIMS_H
#define MAPSNAP_TEXT_SHIMS_H

#include <stdint.h>

/// One glyph as HarfBuzz shaped it, in font units (the font's scale is its
/// units per em): the glyph id, the index of the first UTF-32 code unit of
/// its cluster, the pen advance and the offset from the pen (y up).
typedef struct {
  uint32_t glyph;
  uint32_t cluster;
  int32_t x_advance;
  int32_t y_advance;
  int32_t x_offset;
  int32_t y_offset;
} mapsnap_shaped_glyph;

/// Loads HarfBuzz (libharfbuzz.so.0) and FriBidi (libfribidi.so.0) with
/// dlopen, once per process (later calls return the first answer). Returns 1
/// when both are usable; else 0 with the reason in `message` (NUL-terminated,
/// at most `capacity` bytes).
int mapsnap_text_load(char *message, int capacity);

/// HarfBuzz's version string ("6.0.0"), after a successful load; else "".
const char *mapsnap_text_harfbuzz_version(void);

/// A HarfBuzz font over the font file at `path` (face `index`), at a scale of
/// one unit per font unit; NULL when HarfBuzz cannot read it. Release with
/// `mapsnap_text_font_destroy`.
void *mapsnap_text_font_create(const char *path, unsigned index);
void mapsnap_text_font_destroy(void *font);

/// Shapes a short Latin word with `font` and forgets the result, so that
/// HarfBuzz builds the font's lookup tables now (on a thread of the
/// caller's choosing) rather than at its first real text.
void mapsnap_text_font_warm(void *font);

/// A shaping buffer, reused from call to call by one thread.
void *mapsnap_text_buffer_create(void);
void mapsnap_text_buffer_destroy(void *buffer);

/// Shapes `count` code points of `text` starting at `offset` (the whole
/// `length` is the context, so Arabic joins across a run's ends) with `font`,
/// in direction right-to-left when `rtl` is nonzero, as script `script` (an
/// ISO 15924 tag as HarfBuzz spells it). The language is left unset, so the
/// result never depends on the process's locale. Returns the number of
/// glyphs, read with `mapsnap_text_buffer_glyphs` (in visual order: an RTL
/// run comes out right to left reversed, i.e. left to right on screen).
int mapsnap_text_shape(void *buffer, void *font, const uint32_t *text, int length, int offset, int count,
                       int rtl, uint32_t script);
void mapsnap_text_buffer_glyphs(void *buffer, mapsnap_shaped_glyph *out, int count);

/// The Unicode script of a code point as HarfBuzz's tag ('Zyyy' common,
/// 'Zinh' inherited, 'Zzzz' unknown).
uint32_t mapsnap_text_script(uint32_t codepoint);

/// The bidi embedding levels of one paragraph (Unicode Bidirectional
/// Algorithm through rule L1, by FriBidi) into `levels` (`length` bytes).
/// `direction`: 0 from the first strong character (rules P2, P3), 1
/// left-to-right, 2 right-to-left. Returns the paragraph's level (0 or 1),
/// or -1 when FriBidi cannot be loaded or failed (out of memory). Loads the
/// libraries on first use, as `mapsnap_text_load` does.
int mapsnap_text_bidi_levels(const uint32_t *text, int length, int direction, uint8_t *levels);

/// Replaces Arabic letters of `text` (one paragraph, logical order, with
/// the embedding `levels` of mapsnap_text_bidi_levels) by their joined
/// presentation forms and lam-alef ligatures (FriBidi's Arabic shaping; the
/// second letter of a ligature becomes U+FEFF). 0, or -1 when FriBidi is not loaded.
int mapsnap_text_shape_arabic(uint32_t *text, int length, const uint8_t *levels);

#endif
