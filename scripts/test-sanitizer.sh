#!/usr/bin/env bash
# One sanitizer's tests (unit, golden images, CLI end to end), in a build
# folder of its own:
#
#   scripts/test-sanitizer.sh thread  [swift test options…]   # .build/tsan
#   scripts/test-sanitizer.sh address [swift test options…]   # .build/asan
#
# `make test-tsan` and `make test-asan` run it (each a CI step of its own).
# Without options it runs the tests scripts/sanitizer-tests.txt gives that
# sanitizer (what it can find, and why); options replace that choice (e.g.
# `--filter CLITests`, or `--filter .` for every test). Either way it first
# checks that every suite of `swift test list` has its line in
# scripts/sanitizer-tests.txt and every line names a test
# (scripts/sanitizer-selection.py): a new suite fails the step until its
# line says which sanitizers run it.
# Fails when a test fails or when any process of the run, the test runner or
# a `mapsnap` started by the CLI tests, wrote a sanitizer report: reports go
# to files (log_path) under .build/<tsan|asan>/sanitizer-reports/, printed
# at the end, so a child whose report a test would not notice still fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
# Without the HTTP server (SwiftNIO, Hummingbird: Package.swift): its
# library's tests run here, the server itself in `make test-serve`.
export MAPSNAP_SERVER=0

kind=${1:-}
case $kind in
  thread) tag=tsan ;;
  address) tag=asan ;;
  *) echo "usage: $0 thread|address [swift test options…]" >&2; exit 2 ;;
esac
shift
SWIFT=${SWIFT:-swift}
build=$PWD/.build/$tag
reports=$build/sanitizer-reports

start=$SECONDS
$SWIFT build --build-tests --sanitize="$kind" --build-path "$build"
built=$SECONDS

# The CLI tests run the `mapsnap` beside the test bundle (Tests/CLITests/
# CLIRunner.swift); name it outright and check it is the sanitized one.
products=$($SWIFT build --sanitize="$kind" --build-path "$build" --show-bin-path)
export MAPSNAP_BINARY=$products/mapsnap
# (grep -c reads all of nm's output: grep -q would stop early and, with
# pipefail, fail the pipeline by SIGPIPE.)
if [ "$(nm "$MAPSNAP_BINARY" 2>/dev/null | grep -cw "__${tag}_init" || true)" = 0 ]; then
  echo "test-$tag: $MAPSNAP_BINARY is not built with the $kind sanitizer" >&2
  exit 1
fi

# Swift's backtracer would catch the sanitizer's abort and print a second,
# much slower report of its own.
export SWIFT_BACKTRACE=enable=no
# Tests that run the same concurrent code many ways run fewer of them under a
# sanitizer (GoldenTests.DeterminismTests: two layouts, not four).
export MAPSNAP_TEST_SANITIZER=$kind
# Any report is fatal (halt_on_error), as SIGABRT (abort_on_error), in the
# test runner and in every child; each process's reports go to its own file.
# Options already in TSAN_OPTIONS / ASAN_OPTIONS come last and win (e.g.
# TSAN_OPTIONS=halt_on_error=0 to collect every report of a run).
common="halt_on_error=1:abort_on_error=1:log_path=$reports/$tag"
case $kind in
  thread)
    # TSan cannot see the contended path of Swift's Synchronization.Mutex
    # on Linux (futex handover in the kernel): scripts/tsan-swift-mutex.c
    # tells it, preloaded into the runner and every mapsnap it starts.
    toolchain=$(dirname "$(readlink -f "$(command -v "$SWIFT")")")
    "$toolchain/clang" -O1 -Wall -Werror -shared -fPIC -o "$build/tsan-swift-mutex.so" \
      scripts/tsan-swift-mutex.c -ldl
    export LD_PRELOAD=$build/tsan-swift-mutex.so${LD_PRELOAD:+:$LD_PRELOAD}
    export TSAN_OPTIONS="$common:suppressions=$PWD/scripts/tsan.supp:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    ;;
  address)
    # No LeakSanitizer: over the whole suite it reports only objects kept
    # until exit by code that is not ours (XCTest's runner in its empty
    # XCTest pass, the weak-reference side tables of Foundation's Process in
    # the runner, a swift-argument-parser key in one mapsnap run), none in
    # MapSnap or the C shims, and its exit status (23) in a child is taken
    # by the tests for mapsnap's own. Memory errors (overflows, use after
    # free, double free) are all still detected.
    export ASAN_OPTIONS="$common:detect_leaks=0:suppressions=$PWD/scripts/asan.supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    ;;
esac

rm -rf "$reports"
mkdir -p "$reports"
# The tests this build holds, and the options that run this sanitizer's.
$SWIFT test list --skip-build --sanitize="$kind" --build-path "$build" >"$build/tests.txt"
python3 scripts/sanitizer-selection.py "$kind" scripts/sanitizer-tests.txt "$build/tests.txt" >"$build/selection.txt"
mapfile -t selection <"$build/selection.txt"
if [ "$#" -gt 0 ]; then selection=("$@"); fi
listed=$SECONDS

status=0
$SWIFT test --skip-build --sanitize="$kind" --build-path "$build" "${selection[@]}" || status=$?
tested=$SECONDS

count=0
while IFS= read -r -d '' f; do
  [ "$count" -gt 0 ] || echo "test-$tag: sanitizer reports (in $reports):"
  count=$((count + 1))
  echo "---- $f"
  cat "$f"
done < <(find "$reports" -type f -print0 | sort -z)
[ "$count" = 0 ] || status=1
echo "test-$tag: build $((built - start)) s, list $((listed - built)) s, tests $((tested - listed)) s, $count report files, exit $status"
exit $status
