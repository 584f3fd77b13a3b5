/*
 * tsan-swift-mutex.c: tells ThreadSanitizer about the contended path of
 * Swift's Synchronization.Mutex on Linux. Preloaded (LD_PRELOAD) into the
 * TSan-instrumented test runner and `mapsnap` by scripts/test-sanitizer.sh;
 * never linked into anything that ships.
 *
 * Why: Mutex.withLock is inlined into our (instrumented) code. Its fast path
 * is an atomic compare-exchange on the mutex word, acquire on lock and
 * release on unlock, which TSan sees. When the lock is contended, the
 * stdlib's _lockSlow/_unlockSlow (libswiftSynchronization.so, not
 * instrumented) hand the lock over inside the kernel with FUTEX_LOCK_PI /
 * FUTEX_UNLOCK_PI, so TSan sees neither the release nor the acquire and
 * reports every access made under a lock taken that way as a race (a
 * standalone program whose accesses are all under one Mutex is reported).
 *
 * These wrappers add the missing edges on the mutex word's own address, the
 * address the fast path's atomics already use: release before the slow
 * unlock, acquire after the slow lock (and after a successful slow trylock).
 * They add no synchronisation the program does not have, so no real race is
 * hidden. The real functions are found with dlsym(RTLD_NEXT).
 *
 * The stdlib functions take the handle's address in the Swift "self"
 * register (r13 on x86-64, x20 on arm64): clang's swiftcall convention with
 * a swift_context parameter passes it there.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SC __attribute__((swiftcall))
#define SELF __attribute__((swift_context))

/* Weak: the library is preloaded into every child process too (python3,
 * sh), where there is no TSan runtime and nothing to do. */
__attribute__((weak)) void __tsan_acquire(void *addr);
__attribute__((weak)) void __tsan_release(void *addr);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRYLOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef SC void (*lock_slow_fn)(uint32_t, void *SELF);
typedef SC bool (*trylock_slow_fn)(void *SELF);
typedef SC void (*unlock_slow_fn)(void *SELF);

static lock_slow_fn real_lock_slow;
static trylock_slow_fn real_trylock_slow;
static unlock_slow_fn real_unlock_slow;

/* Resolved once at load, before any thread exists; NULL in a process
 * without the Swift runtime, where the wrappers are never called. */
__attribute__((constructor)) static void resolve(void) {
  real_lock_slow = (lock_slow_fn)dlsym(RTLD_NEXT, LOCK_SLOW);
  real_trylock_slow = (trylock_slow_fn)dlsym(RTLD_NEXT, TRYLOCK_SLOW);
  real_unlock_slow = (unlock_slow_fn)dlsym(RTLD_NEXT, UNLOCK_SLOW);
}

static void missing(const char *name) {
  fprintf(stderr, "tsan-swift-mutex: %s not found after this library\n", name);
  abort();
}

SC void lock_slow(uint32_t self_id, void *SELF handle) __asm__(LOCK_SLOW);
SC void lock_slow(uint32_t self_id, void *SELF handle) {
  if (real_lock_slow == NULL) missing(LOCK_SLOW);
  real_lock_slow(self_id, handle);
  if (__tsan_acquire) __tsan_acquire(handle);
}

SC bool trylock_slow(void *SELF handle) __asm__(TRYLOCK_SLOW);
SC bool trylock_slow(void *SELF handle) {
  if (real_trylock_slow == NULL) missing(TRYLOCK_SLOW);
  bool locked = real_trylock_slow(handle);
  if (locked && __tsan_acquire) __tsan_acquire(handle);
  return locked;
}

SC void unlock_slow(void *SELF handle) __asm__(UNLOCK_SLOW);
SC void unlock_slow(void *SELF handle) {
  if (real_unlock_slow == NULL) missing(UNLOCK_SLOW);
  if (__tsan_release) __tsan_release(handle);
  real_unlock_slow(handle);
}
