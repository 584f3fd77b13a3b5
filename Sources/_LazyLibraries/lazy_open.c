#include "lazy_open.h"

#include <dlfcn.h>
#include <stdio.h>

void lazy_open(lazy_library *lib, const char *const *names, void **slots, size_t count) {
  void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(lib->message, sizeof lib->message, "%s could not be loaded (install Debian's %s; make setup does): %s",
             lib->soname, lib->package, why != NULL ? why : "unknown error");
    return;
  }
  for (size_t i = 0; i < count; i++) {
    slots[i] = dlsym(handle, names[i]);
    if (slots[i] == NULL) {
      snprintf(lib->message, sizeof lib->message, "%s has no %s (a different version of %s?)", lib->soname, names[i],
               lib->package);
      return;
    }
  }
  lib->loaded = 1;
}
