#!/usr/bin/env bash
# make fuzz: runs every fuzz target (or the ones named) for FUZZ_SECONDS
# each, from its seed corpus, under ASan, and prints inputs run, exec/s and
# findings per target. Needs `make fuzz-build` first.
#
#   scripts/fuzz.sh [TARGET…]
#
# Environment: FUZZ_SECONDS (60), FUZZ_RSS_MB (2048), FUZZ_TIMEOUT (5),
# FUZZ_BIN (.build/fuzz/release/mapsnap-fuzz), FUZZ_WORK (.build/fuzz/runs:
# the growing corpora and the crash artifacts, outside git), FUZZ_RUNS
# (libFuzzer's -runs, instead of a time), FUZZ_KEEP_GOING=1 (libFuzzer's
# fork mode: every finding is kept and fuzzing goes on to the end of the
# time, instead of stopping at the first).
# A finding is written to $FUZZ_WORK/artifacts/<target>/ and the script
# exits 1 after every target has run; minimise it with
#   .build/fuzz/release/mapsnap-fuzz TARGET -minimize_crash=1 -runs=10000 FILE
# and add it to Tests/Fixtures/fuzz/<target>/ as a regression test.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${FUZZ_BIN:-.build/fuzz/release/mapsnap-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
RSS_MB=${FUZZ_RSS_MB:-2048}
TIMEOUT=${FUZZ_TIMEOUT:-5}
WORK=${FUZZ_WORK:-.build/fuzz/runs}
if [ ! -x "$BIN" ]; then echo "fuzz.sh: $BIN is missing: run make fuzz-build" >&2; exit 2; fi

mkdir -p "$WORK"
# libFuzzer takes one dictionary: the scene format's keys with JSON's syntax,
# and for tile matrix sets the OGC 2.0 keys with JSON's syntax (gpkgtiles'
# text form has its own, Fuzz/gpkgtiles.dict).
cat Fuzz/scene.dict Fuzz/json.dict > "$WORK/scene+json.dict"
cat Fuzz/tilematrixset.dict Fuzz/json.dict > "$WORK/tilematrixset+json.dict"
# Swift's backtracer would symbolise a crash for minutes; ASan reports it.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:handle_abort=1:handle_sigill=1:handle_sigtrap=1}
if command -v llvm-symbolizer >/dev/null; then export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer); fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <("$BIN" --list | cut -f1)
fi

status=0
printf '%-9s %10s %8s %6s %s\n' target inputs exec/s cov findings > "$WORK/summary.txt"
for t in "${targets[@]}"; do
  maxlen=$("$BIN" --list | awk -F'\t' -v t="$t" '$1 == t {print $2}')
  if [ -z "$maxlen" ]; then echo "fuzz.sh: no target $t" >&2; exit 2; fi
  dict=()
  case "$t" in
    scene|render|geojson|manifest|case|report|tilejson) dict=(-dict="$WORK/scene+json.dict") ;;
    tilematrixset) dict=(-dict="$WORK/tilematrixset+json.dict") ;;
    gpkgtiles) dict=(-dict=Fuzz/gpkgtiles.dict) ;;
  esac
  corpus="$WORK/corpus/$t"
  artifacts="$WORK/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  touch "$WORK/.start-$t"
  limit=(-max_total_time="$SECONDS_EACH")
  if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); fi
  if [ -n "${FUZZ_KEEP_GOING:-}" ]; then limit+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1); fi
  log="$WORK/$t.log"
  echo "== $t: ${FUZZ_RUNS:+$FUZZ_RUNS inputs}${FUZZ_RUNS:-${SECONDS_EACH} s}, max_len $maxlen, log $log"
  "$BIN" "$t" "${limit[@]}" -rss_limit_mb="$RSS_MB" -timeout="$TIMEOUT" -max_len="$maxlen" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$corpus" "Fuzz/corpus/$t" > "$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ -n "${FUZZ_KEEP_GOING:-}" ]; then  # fork mode: the last "#N: cov: … exec/s: S" line
    runs=$(sed -n 's/^#\([0-9]*\): cov.*/\1/p' "$log" | tail -1)
    speed=$(sed -n 's/^#[0-9]*: cov.* exec\/s: \([0-9]*\).*/\1/p' "$log" | tail -1)
  fi
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  found=$(find "$artifacts" -type f -newer "$WORK/.start-$t" | wc -l)
  printf '%-9s %10s %8s %6s %s\n' "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" "$found" | tee -a "$WORK/summary.txt"
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer)|==ERROR|deadly signal|out-of-memory|timeout' "$log" | sed 's/^/   /'
    find "$artifacts" -type f -newer "$WORK/.start-$t" | sed 's/^/   /'
  fi
done
echo; cat "$WORK/summary.txt"
exit $status
