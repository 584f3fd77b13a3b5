/* The loader shared by the forwarders (lazy_libraries.h). Internal. */
#ifndef MAPSNAP_LAZY_OPEN_H
#define MAPSNAP_LAZY_OPEN_H

#include <stddef.h>

/* One library opened on first use: `soname` with dlopen, then each of the
 * `count` names into `slots`. Thread-safe (pthread_once in the caller). */
typedef struct lazy_library {
  const char *soname;
  const char *package; /* the Debian package that holds it */
  int loaded;
  char message[320];
} lazy_library;

/* Opens `lib` and looks up names[i] into slots[i]; sets `loaded` or `message`. */
void lazy_open(lazy_library *lib, const char *const *names, void **slots, size_t count);

/* The loader of one library, for a forwarder file: `library`, `ready()`
 * (opens the library on its first call, once, thread-safe; true when it is
 * loaded) and REAL(f), the library's own f, for the entry points that
 * ENTRY_POINTS lists as X(name) (an X-macro). Needs <pthread.h>. */
#define LAZY_LIBRARY(SONAME, PACKAGE, ENTRY_POINTS) LAZY_LIBRARY_THEN(SONAME, PACKAGE, ENTRY_POINTS, lazy_nothing)

/* The same, calling AFTER() once the library is loaded, before anything
 * else uses it (a process-wide setting the library takes only first). */
#define LAZY_LIBRARY_THEN(SONAME, PACKAGE, ENTRY_POINTS, AFTER)                                      \
  static const char *const lazy_names[] = {ENTRY_POINTS(LAZY_NAME)};                               \
  enum { ENTRY_POINTS(LAZY_SLOT) lazy_slot_count };                                                \
  static void *lazy_slots[lazy_slot_count];                                                        \
  static lazy_library library = {SONAME, PACKAGE, 0, {0}};                                         \
  static pthread_once_t lazy_once = PTHREAD_ONCE_INIT;                                             \
  static void lazy_load(void) {                                                                    \
    lazy_open(&library, lazy_names, lazy_slots, lazy_slot_count);                                  \
    if (library.loaded) AFTER();                                                                   \
  }                                                                                                \
  static int ready(void) {                                                                         \
    pthread_once(&lazy_once, lazy_load);                                                           \
    return library.loaded;                                                                         \
  }
static inline void lazy_nothing(void) {}
#define LAZY_NAME(f) #f,
#define LAZY_SLOT(f) lazy_slot_##f,
#define REAL(f) ((__typeof__(f) *)lazy_slots[lazy_slot_##f])

#endif
