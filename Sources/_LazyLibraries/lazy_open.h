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

#endif
