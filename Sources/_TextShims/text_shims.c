// HarfBuzz and FriBidi, opened with dlopen on first use.
//
// Both are read through their own headers (Debian's libharfbuzz-dev and
// libfribidi-dev, for the types and signatures only) but not linked:
// libharfbuzz pulls in GLib, Graphite and PCRE2, whose start-up would be paid
// by every run, text or not (the start-up target of issue 13). The few entry
// points used are looked up once; the rest of mapsnap sees only this file's
// small API.

#include "text_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fribidi/fribidi.h>
#include <harfbuzz/hb.h>

#define HB_FUNCTIONS(X)                                                                              \
  X(hb_version_string)                                                                             \
  X(hb_blob_create_from_file_or_fail)                                                              \
  X(hb_blob_destroy)                                                                               \
  X(hb_face_create)                                                                                \
  X(hb_face_destroy)                                                                               \
  X(hb_face_get_glyph_count)                                                                       \
  X(hb_face_get_upem)                                                                              \
  X(hb_font_create)                                                                                \
  X(hb_font_destroy)                                                                               \
  X(hb_font_set_scale)                                                                             \
  X(hb_buffer_create)                                                                              \
  X(hb_buffer_destroy)                                                                             \
  X(hb_buffer_allocation_successful)                                                               \
  X(hb_buffer_clear_contents)                                                                      \
  X(hb_buffer_add_utf32)                                                                           \
  X(hb_buffer_set_direction)                                                                       \
  X(hb_buffer_set_script)                                                                          \
  X(hb_buffer_set_cluster_level)                                                                   \
  X(hb_buffer_get_length)                                                                          \
  X(hb_buffer_get_glyph_infos)                                                                     \
  X(hb_buffer_get_glyph_positions)                                                                 \
  X(hb_shape)                                                                                      \
  X(hb_unicode_funcs_get_default)                                                                  \
  X(hb_unicode_script)

#define FRIBIDI_FUNCTIONS(X)                                                                         \
  X(fribidi_get_bidi_types)                                                                        \
  X(fribidi_get_bracket_types)                                                                     \
  X(fribidi_get_par_embedding_levels_ex)                                                           \
  X(fribidi_get_joining_types)                                                                     \
  X(fribidi_join_arabic)                                                                           \
  X(fribidi_shape_arabic)

#define DECLARE(name) static __typeof__(name) *p_##name;
HB_FUNCTIONS(DECLARE)
FRIBIDI_FUNCTIONS(DECLARE)
#undef DECLARE

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_message[256];

static int open_library(const char *soname, const char *package, void **handle) {
  *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!*handle) {
    snprintf(load_message, sizeof load_message, "%s could not be loaded (install Debian's %s; make setup does)",
             soname, package);
    return 0;
  }
  return 1;
}

static void load(void) {
  void *hb, *fribidi;
  if (!open_library("libharfbuzz.so.0", "libharfbuzz0b", &hb)) return;
  if (!open_library("libfribidi.so.0", "libfribidi0", &fribidi)) return;
#define LOOK_UP(lib, name)                                                                           \
  p_##name = (__typeof__(name) *)dlsym(lib, #name);                                                \
  if (!p_##name) {                                                                                 \
    snprintf(load_message, sizeof load_message, "%s has no %s (too old)", #lib, #name);           \
    return;                                                                                        \
  }
#define LOOK_UP_HB(name) LOOK_UP(hb, name)
#define LOOK_UP_FRIBIDI(name) LOOK_UP(fribidi, name)
  HB_FUNCTIONS(LOOK_UP_HB)
  FRIBIDI_FUNCTIONS(LOOK_UP_FRIBIDI)
#undef LOOK_UP
  loaded = 1;
}

int mapsnap_text_load(char *message, int capacity) {
  pthread_once(&load_once, load);
  if (!loaded && message && capacity > 0) snprintf(message, (size_t)capacity, "%s", load_message);
  return loaded;
}

const char *mapsnap_text_harfbuzz_version(void) { return loaded ? p_hb_version_string() : ""; }

void *mapsnap_text_font_create(const char *path, unsigned index) {
  if (!loaded) return NULL;
  hb_blob_t *blob = p_hb_blob_create_from_file_or_fail(path);
  if (!blob) return NULL;
  hb_face_t *face = p_hb_face_create(blob, index);
  p_hb_blob_destroy(blob);  // the face keeps its own reference
  if (p_hb_face_get_glyph_count(face) == 0) {
    p_hb_face_destroy(face);
    return NULL;
  }
  int upem = (int)p_hb_face_get_upem(face);
  hb_font_t *font = p_hb_font_create(face);
  p_hb_face_destroy(face);  // the font keeps its own reference
  p_hb_font_set_scale(font, upem, upem);
  return font;
}

void mapsnap_text_font_destroy(void *font) {
  if (font) p_hb_font_destroy((hb_font_t *)font);
}

void mapsnap_text_font_warm(void *font) {
  if (!loaded || !font) return;
  static const uint32_t word[] = {'W', 'a', 'r', 'm', ' ', 'A', 'V', 'f', 'i'};
  hb_buffer_t *b = p_hb_buffer_create();
  p_hb_buffer_add_utf32(b, word, 9, 0, 9);
  p_hb_buffer_set_direction(b, HB_DIRECTION_LTR);
  p_hb_buffer_set_script(b, HB_SCRIPT_LATIN);
  p_hb_shape((hb_font_t *)font, b, NULL, 0);
  p_hb_buffer_destroy(b);
}

void *mapsnap_text_buffer_create(void) {
  if (!loaded) return NULL;
  hb_buffer_t *b = p_hb_buffer_create();
  if (!p_hb_buffer_allocation_successful(b)) {
    p_hb_buffer_destroy(b);
    return NULL;
  }
  return b;
}

void mapsnap_text_buffer_destroy(void *buffer) {
  if (buffer) p_hb_buffer_destroy((hb_buffer_t *)buffer);
}

int mapsnap_text_shape(void *buffer, void *font, const uint32_t *text, int length, int offset, int count,
                       int rtl, uint32_t script) {
  hb_buffer_t *b = (hb_buffer_t *)buffer;
  p_hb_buffer_clear_contents(b);
  p_hb_buffer_add_utf32(b, text, length, (unsigned)offset, count);
  p_hb_buffer_set_direction(b, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
  p_hb_buffer_set_script(b, (hb_script_t)script);
  // Clusters keep the monotone characters level (HarfBuzz's default): a
  // cluster's index is its first code point's.
  p_hb_buffer_set_cluster_level(b, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES);
  p_hb_shape((hb_font_t *)font, b, NULL, 0);
  if (!p_hb_buffer_allocation_successful(b)) return -1;
  return (int)p_hb_buffer_get_length(b);
}

void mapsnap_text_buffer_glyphs(void *buffer, mapsnap_shaped_glyph *out, int count) {
  hb_buffer_t *b = (hb_buffer_t *)buffer;
  unsigned n = 0;
  hb_glyph_info_t *info = p_hb_buffer_get_glyph_infos(b, &n);
  hb_glyph_position_t *pos = p_hb_buffer_get_glyph_positions(b, &n);
  for (unsigned i = 0; i < n && (int)i < count; i++) {
    out[i].glyph = info[i].codepoint;
    out[i].cluster = info[i].cluster;
    out[i].x_advance = pos[i].x_advance;
    out[i].y_advance = pos[i].y_advance;
    out[i].x_offset = pos[i].x_offset;
    out[i].y_offset = pos[i].y_offset;
  }
}

uint32_t mapsnap_text_script(uint32_t codepoint) {
  if (!loaded) return HB_SCRIPT_UNKNOWN;
  return (uint32_t)p_hb_unicode_script(p_hb_unicode_funcs_get_default(), codepoint);
}

int mapsnap_text_bidi_levels(const uint32_t *text, int length, int direction, uint8_t *levels) {
  pthread_once(&load_once, load);
  if (!loaded || length < 0) return -1;
  if (length == 0) return direction == 2 ? 1 : 0;
  FriBidiCharType *types = malloc(sizeof *types * (size_t)length);
  FriBidiBracketType *brackets = malloc(sizeof *brackets * (size_t)length);
  if (!types || !brackets) {
    free(types);
    free(brackets);
    return -1;
  }
  p_fribidi_get_bidi_types(text, length, types);
  p_fribidi_get_bracket_types(text, length, types, brackets);
  FriBidiParType base = direction == 1 ? FRIBIDI_PAR_LTR : direction == 2 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON;
  FriBidiLevel max = p_fribidi_get_par_embedding_levels_ex(types, brackets, length, &base, (FriBidiLevel *)levels);
  free(types);
  free(brackets);
  if (max == 0) return -1;
  return FRIBIDI_IS_RTL(base) ? 1 : 0;
}

int mapsnap_text_shape_arabic(uint32_t *text, int length, const uint8_t *levels) {
  pthread_once(&load_once, load);
  if (!loaded || length < 0) return -1;
  if (length == 0) return 0;
  FriBidiCharType *types = malloc(sizeof *types * (size_t)length);
  FriBidiArabicProp *props = malloc(sizeof *props * (size_t)length);
  if (!types || !props) {
    free(types);
    free(props);
    return -1;
  }
  p_fribidi_get_bidi_types(text, length, types);
  p_fribidi_get_joining_types(text, length, props);
  p_fribidi_join_arabic(types, length, (const FriBidiLevel *)levels, props);
  p_fribidi_shape_arabic(FRIBIDI_FLAGS_ARABIC, (const FriBidiLevel *)levels, length, props, text);
  free(types);
  free(props);
  return 0;
}
