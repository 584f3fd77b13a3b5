/* SQLite's entry points as used by mapsnap, opened on first use
 * (lazy_libraries.h). Each forwarder has the header's exact signature. */
#include "lazy_libraries.h"
#include "lazy_open.h"

#include <pthread.h>

#pragma GCC visibility push(hidden)
#include <sqlite3.h>

#define SQLITE_ENTRY_POINTS(X)                                                                                       \
  X(sqlite3_open_v2) X(sqlite3_close) X(sqlite3_errmsg) X(sqlite3_exec) X(sqlite3_busy_timeout)                    \
  X(sqlite3_prepare_v2) X(sqlite3_step) X(sqlite3_reset) X(sqlite3_finalize) X(sqlite3_column_count)                \
  X(sqlite3_column_blob) X(sqlite3_column_bytes) X(sqlite3_column_double) X(sqlite3_column_int64)                   \
  X(sqlite3_column_text) X(sqlite3_column_type) X(sqlite3_bind_blob) X(sqlite3_bind_double) X(sqlite3_bind_int)     \
  X(sqlite3_bind_int64) X(sqlite3_bind_text) X(sqlite3_vfs_find) X(sqlite3_vfs_register) X(sqlite3_config)                \
  X(sqlite3_memory_used)

static void sqlite_configure(void);
LAZY_LIBRARY_THEN("libsqlite3.so.0", "libsqlite3-0", SQLITE_ENTRY_POINTS, sqlite_configure)

/* SQLite counts every allocation under one process-wide mutex unless told
 * not to (SQLITE_CONFIG_MEMSTATUS, on in Debian's build): two threads
 * reading two tables of one GeoPackage, each on its own connection, took
 * turns at that mutex on every row. mapsnap never asks SQLite for its memory
 * statistics. Set before SQLite initialises (it refuses the setting after,
 * when PROJ or GDAL loaded and started it first: nothing breaks then). */
static void sqlite_configure(void) { REAL(sqlite3_config)(SQLITE_CONFIG_MEMSTATUS, 0); }

#pragma GCC visibility pop

const char *mapsnap_sqlite_unavailable(void) { return ready() ? NULL : library.message; }

#pragma GCC visibility push(hidden)

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
  if (!ready()) {
    if (db != NULL) *db = NULL;
    return SQLITE_CANTOPEN;
  }
  return REAL(sqlite3_open_v2)(filename, db, flags, vfs);
}
int sqlite3_close(sqlite3 *db) { return ready() ? REAL(sqlite3_close)(db) : SQLITE_OK; }
const char *sqlite3_errmsg(sqlite3 *db) { return ready() ? REAL(sqlite3_errmsg)(db) : library.message; }
int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *arg, char **error) {
  return ready() ? REAL(sqlite3_exec)(db, sql, callback, arg, error) : SQLITE_MISUSE;
}
int sqlite3_busy_timeout(sqlite3 *db, int ms) { return ready() ? REAL(sqlite3_busy_timeout)(db, ms) : SQLITE_MISUSE; }
int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail) {
  if (!ready()) {
    if (statement != NULL) *statement = NULL;
    return SQLITE_MISUSE;
  }
  return REAL(sqlite3_prepare_v2)(db, sql, bytes, statement, tail);
}
int sqlite3_step(sqlite3_stmt *s) { return ready() ? REAL(sqlite3_step)(s) : SQLITE_MISUSE; }
int sqlite3_reset(sqlite3_stmt *s) { return ready() ? REAL(sqlite3_reset)(s) : SQLITE_OK; }
int sqlite3_finalize(sqlite3_stmt *s) { return ready() ? REAL(sqlite3_finalize)(s) : SQLITE_OK; }
int sqlite3_column_count(sqlite3_stmt *s) { return ready() ? REAL(sqlite3_column_count)(s) : 0; }
const void *sqlite3_column_blob(sqlite3_stmt *s, int i) { return ready() ? REAL(sqlite3_column_blob)(s, i) : NULL; }
int sqlite3_column_bytes(sqlite3_stmt *s, int i) { return ready() ? REAL(sqlite3_column_bytes)(s, i) : 0; }
double sqlite3_column_double(sqlite3_stmt *s, int i) { return ready() ? REAL(sqlite3_column_double)(s, i) : 0; }
sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *s, int i) { return ready() ? REAL(sqlite3_column_int64)(s, i) : 0; }
const unsigned char *sqlite3_column_text(sqlite3_stmt *s, int i) {
  return ready() ? REAL(sqlite3_column_text)(s, i) : NULL;
}
int sqlite3_column_type(sqlite3_stmt *s, int i) { return ready() ? REAL(sqlite3_column_type)(s, i) : SQLITE_NULL; }
int sqlite3_bind_blob(sqlite3_stmt *s, int i, const void *v, int n, void (*d)(void *)) {
  return ready() ? REAL(sqlite3_bind_blob)(s, i, v, n, d) : SQLITE_MISUSE;
}
int sqlite3_bind_double(sqlite3_stmt *s, int i, double v) {
  return ready() ? REAL(sqlite3_bind_double)(s, i, v) : SQLITE_MISUSE;
}
int sqlite3_bind_int(sqlite3_stmt *s, int i, int v) { return ready() ? REAL(sqlite3_bind_int)(s, i, v) : SQLITE_MISUSE; }
int sqlite3_bind_int64(sqlite3_stmt *s, int i, sqlite3_int64 v) {
  return ready() ? REAL(sqlite3_bind_int64)(s, i, v) : SQLITE_MISUSE;
}
int sqlite3_bind_text(sqlite3_stmt *s, int i, const char *v, int n, void (*d)(void *)) {
  return ready() ? REAL(sqlite3_bind_text)(s, i, v, n, d) : SQLITE_MISUSE;
}
sqlite3_int64 sqlite3_memory_used(void) { return ready() ? REAL(sqlite3_memory_used)() : 0; }
sqlite3_vfs *sqlite3_vfs_find(const char *name) { return ready() ? REAL(sqlite3_vfs_find)(name) : NULL; }
int sqlite3_vfs_register(sqlite3_vfs *vfs, int makeDefault) {
  return ready() ? REAL(sqlite3_vfs_register)(vfs, makeDefault) : SQLITE_MISUSE;
}

#pragma GCC visibility pop
