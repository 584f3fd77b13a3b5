/*
 * lazy_libraries.h — SQLite, FreeType, libjpeg, libpq and ISA-L opened on
 * first use.
 *
 * mapsnap calls these libraries through their own headers, but the binary
 * does not link them: this target defines every entry point mapsnap uses
 * (hidden, so nothing outside the binary sees them) as a forwarder that
 * opens the library with dlopen on the first call and then calls the real
 * function. A scene without MBTiles, GeoPackage, text or JPEG tiles never
 * maps them: five shared libraries (with FreeType's brotli) fewer at every
 * start (issue 13's start-up target). `make dist` bundles them in lib/,
 * which dlopen searches first (the binary's DT_RPATH), with ISA-L, whose
 * igzip compresses the `fast` PNGs (loaded by the first such frame, so an
 * empty scene's start stays as it was). libpq (PostGIS
 * sources) is not bundled: it comes with Debian's libpq5, as GDAL's does.
 *
 * When a library cannot be opened, the entry points report an error the
 * callers already handle (sqlite3_open_v2: SQLITE_CANTOPEN; FT_Init_FreeType:
 * an error; the JPEG decoder: a failed decode; PQconnectdbParams: NULL), and
 * the functions below say
 * why. Functions only reachable after a successful entry point return their
 * library's error value.
 */
#ifndef MAPSNAP_LAZY_LIBRARIES_H
#define MAPSNAP_LAZY_LIBRARIES_H

#ifdef __cplusplus
extern "C" {
#endif

/** NULL once SQLite is loaded; else why it could not be (tries to load it). */
const char *mapsnap_sqlite_unavailable(void);
/** NULL once FreeType is loaded; else why it could not be (tries to load it). */
const char *mapsnap_freetype_unavailable(void);
/** NULL once libjpeg is loaded; else why it could not be (tries to load it). */
const char *mapsnap_jpeg_unavailable(void);
/** NULL once libpq is loaded; else why it could not be (tries to load it). */
const char *mapsnap_pq_unavailable(void);
/** NULL once ISA-L (libisal, igzip) is loaded; else why it could not be (tries to load it). */
const char *mapsnap_isal_unavailable(void);

#ifdef __cplusplus
}
#endif

#endif
