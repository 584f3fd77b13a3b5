/* FreeType's entry points as used by mapsnap, opened on first use
 * (lazy_libraries.h). Each forwarder has the header's exact signature. */
#include "lazy_libraries.h"
#include "lazy_open.h"

#include <pthread.h>

/* FreeType's headers declare its functions with default visibility, which a
 * definition cannot narrow; the forwarders must be hidden, so that a library
 * loaded later (HarfBuzz links FreeType) binds to FreeType itself and never
 * to them. So this file does not include those headers: it declares the
 * types of the eight signatures as FreeType 2 defines them (fttypes.h,
 * ftimage.h, freetype.h); the structures are only passed through. */
typedef int FT_Error;
typedef signed long FT_Long;
typedef unsigned long FT_ULong;
typedef unsigned int FT_UInt;
typedef signed int FT_Int32;
typedef struct FT_LibraryRec_ *FT_Library;
typedef struct FT_FaceRec_ *FT_Face;
typedef struct FT_Vector_ FT_Vector;
typedef struct FT_Outline_ FT_Outline;
typedef struct FT_Outline_Funcs_ FT_Outline_Funcs;

#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN FT_Error FT_Init_FreeType(FT_Library *);
HIDDEN FT_Error FT_Done_FreeType(FT_Library);
HIDDEN FT_Error FT_New_Face(FT_Library, const char *, FT_Long, FT_Face *);
HIDDEN FT_Error FT_Done_Face(FT_Face);
HIDDEN FT_UInt FT_Get_Char_Index(FT_Face, FT_ULong);
HIDDEN FT_Error FT_Get_Kerning(FT_Face, FT_UInt, FT_UInt, FT_UInt, FT_Vector *);
HIDDEN FT_Error FT_Load_Glyph(FT_Face, FT_UInt, FT_Int32);
HIDDEN FT_Error FT_Outline_Decompose(FT_Outline *, const FT_Outline_Funcs *, void *);

#define FREETYPE_ENTRY_POINTS(X)                                                                                     \
  X(FT_Init_FreeType) X(FT_Done_FreeType) X(FT_New_Face) X(FT_Done_Face) X(FT_Get_Char_Index) X(FT_Get_Kerning)    \
  X(FT_Load_Glyph) X(FT_Outline_Decompose)

LAZY_LIBRARY("libfreetype.so.6", "libfreetype6", FREETYPE_ENTRY_POINTS)

/* FT_Err_Cannot_Open_Resource: what FreeType itself says when it cannot start. */
enum { unavailable = 0x01 };

const char *mapsnap_freetype_unavailable(void) { return ready() ? NULL : library.message; }

HIDDEN FT_Error FT_Init_FreeType(FT_Library *library_) {
  if (!ready()) {
    if (library_ != NULL) *library_ = NULL;
    return unavailable;
  }
  return REAL(FT_Init_FreeType)(library_);
}
HIDDEN FT_Error FT_Done_FreeType(FT_Library l) { return ready() ? REAL(FT_Done_FreeType)(l) : unavailable; }
HIDDEN FT_Error FT_New_Face(FT_Library l, const char *path, FT_Long index, FT_Face *face) {
  if (!ready()) {
    if (face != NULL) *face = NULL;
    return unavailable;
  }
  return REAL(FT_New_Face)(l, path, index, face);
}
HIDDEN FT_Error FT_Done_Face(FT_Face face) { return ready() ? REAL(FT_Done_Face)(face) : unavailable; }
HIDDEN FT_UInt FT_Get_Char_Index(FT_Face face, FT_ULong code) { return ready() ? REAL(FT_Get_Char_Index)(face, code) : 0; }
HIDDEN FT_Error FT_Get_Kerning(FT_Face face, FT_UInt left, FT_UInt right, FT_UInt mode, FT_Vector *kerning) {
  return ready() ? REAL(FT_Get_Kerning)(face, left, right, mode, kerning) : unavailable;
}
HIDDEN FT_Error FT_Load_Glyph(FT_Face face, FT_UInt glyph, FT_Int32 flags) {
  return ready() ? REAL(FT_Load_Glyph)(face, glyph, flags) : unavailable;
}
HIDDEN FT_Error FT_Outline_Decompose(FT_Outline *outline, const FT_Outline_Funcs *funcs, void *user) {
  return ready() ? REAL(FT_Outline_Decompose)(outline, funcs, user) : unavailable;
}
