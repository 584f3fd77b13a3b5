# mapsnap: the commands a newcomer needs.
#
#   make setup   install the system libraries (apt), build, render the example
#   make test    run every test (unit, golden images, CLI end to end)
#   make test-tsan  the tests that run code on several threads, under the thread sanitizer (.build/tsan)
#   make test-asan  the tests that reach C code or unsafe memory, under the address sanitizer (.build/asan)
#   make bench   time load / render / encode on the Helsinki scenes (medians), the server against batch;
#                PNG8 against pngquant (installs Debian's pngquant, for the bench only)
#   make peers   time mapsnap beside Mapnik, cairo, Skia and Blend2D (../shared/bench)
#   make check-reports  validate every golden case's report against docs/report.schema.json
#   make check-docs     every scene-format section the code cites exists, every document link resolves
#   make conformance  the Mapbox GL render suite through `mapsnap test`: a table by group, fails when a
#                recorded count falls (make conformance-record rewrites the counts)
#   make test-cluster   batch shards on a one-node Slurm cluster and GNU parallel (root)
#   make test-postgis   ogr sources from a PostGIS server started in a temporary folder (root)
#   make bench-postgis  the 1,000-thumbnail batch from PostGIS against the GeoPackage (root)
#   make test-report-browser  the HTML report of `mapsnap test` in headless Chromium
#   make server        mapsnap-server, which `mapsnap serve DIR` runs (make setup builds it)
#   make test-serve    `mapsnap serve` end to end: URLs, statuses, fuzz, wrk overload, nginx, Chromium
#   make bench-serve   the server against `mapsnap batch`, latency under wrk, memory over 100k requests
#   make style-data    vector tiles for styles from ../shared/data (Examples/styles/data, Tests/Fixtures/styles)
#   make bench-styles  a MapLibre style against MapLibre Native (pymgl on Mesa); bench-styles-deps installs it
#   make fuzz    every libFuzzer target for FUZZ_SECONDS (60) each (make fuzz-build first builds them)

SWIFT ?= swift
APT_PACKAGES := libpng-dev libfreetype-dev zlib1g-dev libsqlite3-dev libjpeg62-turbo-dev libpq-dev libisal-dev libproj25 proj-data pkg-config \
  libharfbuzz-dev libfribidi-dev libharfbuzz-bin unicode-data libgdal-dev gdal-bin \
  libcurl4-openssl-dev nginx libwebp-dev
BENCH_RUNS ?= 15
# bench-ogr.py's rounds: its ×1 / GeoJSON target is a ratio within 2 % of 1, where the medians of
# 15 rounds of two 50 ms processes scatter by about as much (0.98–1.01 in runs of one hour);
# 41 rounds of its four scenes take some 10 s more.
OGR_BENCH_RUNS ?= 41
SHARED ?= ../shared

CLUSTER_PACKAGES := slurmctld slurmd slurm-client munge parallel
POSTGIS_PACKAGES := postgresql-15 postgresql-15-postgis-3 gdal-bin
BROWSER_PACKAGES := chromium chromium-driver
# `make test-serve` and `make bench-serve`: load (wrk), a cache in front (nginx), the preview page (Chromium).
SERVE_PACKAGES := wrk nginx chromium chromium-driver
# Only `make bench` needs these (the PNG8 reference), not mapsnap itself.
BENCH_PACKAGES := pngquant

.PHONY: bench-deps style-data bench-styles-deps bench-styles
.PHONY: release server serve-deps test-serve bench-serve
.PHONY: setup deps build example install dist test-dist test test-tsan test-asan check-reports check-docs bench peers record-goldens clean cluster-deps test-cluster browser-deps test-report-browser postgis-deps test-postgis bench-postgis

# Installs the Debian packages $(1) that are missing (root, or sudo when
# needed), else says "$(2) present: …". One rule for every *-deps target.
apt-install = missing=""; \
  for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
  if [ -n "$$missing" ]; then \
    SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
    echo "apt-get install$$missing"; \
    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
  else echo "$(2) present: $(1)"; fi

setup: deps release example

# Every program in one release build (mapsnap, mapsnap-server, the bench and
# fuzz drivers): SwiftNIO and Hummingbird compile on the second core while
# MapSnap's whole-module optimisation keeps one busy, where `build` then
# `server` in turn would leave it idle (353 s against 448 s here).
release:
	$(SWIFT) build -c release

# Installs only what is missing; needs root or sudo when something is.
deps:
	@$(call apt-install,$(APT_PACKAGES),system libraries)

build:
	$(SWIFT) build -c release --product mapsnap

# mapsnap-server beside mapsnap: what `mapsnap serve` hands over to (Hummingbird, SwiftNIO).
server:
	$(SWIFT) build -c release --product mapsnap-server

example: build
	.build/release/mapsnap Examples/helsinki.json --scale 8000 -o helsinki.png --report helsinki-report.json
	@echo "wrote helsinki.png and helsinki-report.json"

# The server's own build (SwiftNIO, Hummingbird) is left out of the test
# build (MAPSNAP_SERVER=0, Package.swift): `make test-serve` tests its release build.
test:
	MAPSNAP_SERVER=0 $(SWIFT) test

# Tests again under a sanitizer, each in its own build folder
# (scripts/test-sanitizer.sh), chosen by what the sanitizer can find
# (scripts/sanitizer-tests.txt, one line per suite with its reason): the
# thread sanitizer over every test that runs code on several threads (tile
# renderer, parallel deflate, shared caches, batch workers, signals), the
# address sanitizer over every test that reaches a C shim (libpng, igzip,
# libjpeg, FreeType/HarfBuzz, GDAL, SQLite, libpq, SHA-256) or unsafe-pointer
# code, and the fuzz reproducers. A suite without its line in that file fails
# both steps. Any report, in the test runner or in a mapsnap the CLI tests
# start, fails the step. Separate CI steps after `make test` (which runs every
# test). SAN_TEST_ARGS goes to `swift test` in place of the selection (e.g.
# SAN_TEST_ARGS='--filter CLITests', or '--filter .' for every test).
SAN_TEST_ARGS ?=
test-tsan:
	SWIFT=$(SWIFT) bash scripts/test-sanitizer.sh thread $(SAN_TEST_ARGS)

test-asan:
	SWIFT=$(SWIFT) bash scripts/test-sanitizer.sh address $(SAN_TEST_ARGS)

# The batch shards on real engines: a one-node Slurm cluster started on
# localhost and GNU parallel, against a one-process run (scripts/test-cluster.sh).
# A separate CI step, outside `make test`; needs root.
cluster-deps:
	@$(call apt-install,$(CLUSTER_PACKAGES),cluster tools)

test-cluster: cluster-deps build
	bash scripts/test-cluster.sh .build/release/mapsnap

# `ogr` sources from a real PostGIS server started in a temporary folder
# (scripts/test-postgis.sh). A separate CI step, outside `make test`; needs root.
postgis-deps:
	@$(call apt-install,$(POSTGIS_PACKAGES),PostGIS)

test-postgis: postgis-deps build
	bash scripts/test-postgis.sh .build/release/mapsnap

# Issue 15's batch target timed apart from the test: 1,000 thumbnails from
# PostGIS and from the GeoPackage, alternately, medians of 5 (root).
bench-postgis: postgis-deps build
	bash scripts/bench-postgis.sh --rounds 5 .build/release/mapsnap

# The HTML report of `mapsnap test` in headless Chromium (Selenium): images
# loaded, the actual image left of the slider and the expected right (by
# pixels), toggle working; keeps mapsnap-test-report.png (a CI
# artifact). A separate CI step, outside `make test`.
serve-deps:
	@$(call apt-install,$(SERVE_PACKAGES),server test tools)
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet selenium
	@python3 -c 'import kubernetes_validate' 2>/dev/null || python3 -m pip install --quiet kubernetes-validate

# `mapsnap serve` end to end (scripts/test-serve.py): the README's URLs, statuses, ETag/304, a fuzz of
# URLs and bodies, wrk overload, SIGTERM, nginx in front, the k8s manifests, the preview page in Chromium.
test-serve: serve-deps build server
	python3 scripts/test-serve.py .build/release/mapsnap

# The server against `mapsnap batch` on the same frames, latency under wrk, memory over 100k requests.
bench-serve: serve-deps build server
	python3 scripts/bench-serve.py .build/release/mapsnap $(BENCH_SERVE_ARGS)

browser-deps:
	@$(call apt-install,$(BROWSER_PACKAGES),browser)
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet selenium

test-report-browser: browser-deps build
	python3 scripts/test-html-report.py .build/release/mapsnap mapsnap-test-report.png

# The Mapbox GL render suite (CONFORMANCE_SUITE: its render-tests/ and the
# fixtures its local:// URLs name) through `mapsnap test` as style cases, on
# every core: per-case lines in the suite's order, then the table by group and
# the flat, symbol and fill-extrusion totals. Fails only when the flat or
# symbol tests pass (or come within 1 %) fewer than CONFORMANCE_COUNTS
# records; the HTML report and the failing tests' images go to .build/conformance/.
# `make conformance-record` rewrites the counts (on request only; refused under CI).
.PHONY: conformance conformance-record
CONFORMANCE_SUITE ?= $(SHARED)/conformance/render-suite
CONFORMANCE_COUNTS ?= Tests/Fixtures/conformance/render-suite-counts.json
CONFORMANCE_OUT ?= .build/conformance
CONFORMANCE_ARGS = test $(CONFORMANCE_SUITE)/render-tests --local-root $(CONFORMANCE_SUITE) --offline --groups --quiet \
  --counts $(CONFORMANCE_COUNTS) --html $(CONFORMANCE_OUT)/report.html --junit $(CONFORMANCE_OUT)/junit.xml \
  --artifacts $(CONFORMANCE_OUT)/artifacts

conformance: build
	MAPSNAP_RECORD= .build/release/mapsnap $(CONFORMANCE_ARGS)

conformance-record: build
	MAPSNAP_RECORD= .build/release/mapsnap $(CONFORMANCE_ARGS) --record-counts

# Needs Python's jsonschema (python3 -m pip install jsonschema).
check-reports: build
	python3 scripts/validate-reports.py .build/release/mapsnap

# Every "scene format section N" cited in Sources/, Tests/ and the documents is a
# heading of docs/scene-format.md, and every relative link in README.md,
# BENCHMARKS.md and docs/ names a file and heading that exist (scripts/check-docs.py).
check-docs:
	python3 scripts/check-docs.py

bench-deps:
	@$(call apt-install,$(BENCH_PACKAGES),benchmark tools)

bench: bench-deps serve-deps server
	$(SWIFT) build -c release --product mapsnap-bench
	@for s in 2000 8000 25000; do \
	  .build/release/mapsnap-bench Benchmarks/scenes/helsinki-$$s.json --runs $(BENCH_RUNS); \
	done
	@# Street names along the roads (issue 14): compare with helsinki-8000 above.
	@.build/release/mapsnap-bench Benchmarks/scenes/helsinki-8000-streets.json --runs $(BENCH_RUNS)
	@.build/release/mapsnap-bench Benchmarks/scenes/helsinki-basemap-8000.json --runs $(BENCH_RUNS)
	@.build/release/mapsnap-bench Benchmarks/scenes/basemap-only-8000.json --runs $(BENCH_RUNS)
	@.build/release/mapsnap-bench Benchmarks/scenes/world.json --runs $(BENCH_RUNS)
	@# A label-dense 1024² style frame (issue 40): symbol layout (in resolve) and placement (text) apart.
	@.build/release/mapsnap-bench Tests/Fixtures/styles/bright.json --size 1024x1024 --center 24.9443,60.1716 --zoom 16 --runs $(BENCH_RUNS)
	@.build/release/mapsnap-bench Benchmarks/scenes/nyc-250000.json --runs $(BENCH_RUNS)
	@.build/release/mapsnap-bench Benchmarks/scenes/helsinki-8000.json --diff 4096 --runs $(BENCH_RUNS)
	@# Drawing and compressing on 1 and 2 threads (issue 13's scaling), in process.
	@.build/release/mapsnap-bench Benchmarks/scenes/helsinki-2000.json --stream 8192x8192 --scale 250 --runs $(BENCH_RUNS)
	$(SWIFT) build -c release --product mapsnap
	python3 scripts/bench-startup.py .build/release/mapsnap
	python3 scripts/bench-batch.py .build/release/mapsnap --frames 1000 --runs 3
	python3 scripts/bench-palette.py .build/release/mapsnap .build/release/mapsnap-bench --runs 5
	python3 scripts/bench-ogr.py .build/release/mapsnap --runs $(OGR_BENCH_RUNS)
	python3 scripts/bench-big-frames.py .build/release/mapsnap --runs 5
	# The server against `mapsnap batch` (throughput, p50 and p99); `make bench-serve` adds the 100k-request memory run.
	python3 scripts/bench-serve.py .build/release/mapsnap --memory 0

# Issue 39's style test data (scripts/style-data/make.sh): OpenMapTiles-like vector tiles made by
# GDAL's MVT driver from ../shared/data as MBTiles, XYZ folders and PMTiles (pmtiles, PyPI), the
# benchmark set in Examples/styles/data (not committed) and the committed fixtures in
# Tests/Fixtures/styles; then the style variants of each container (scripts/style-data/variants.py).
# pmtiles is pinned: its converter's bytes are part of the fixtures.
STYLE_DATA_PIP := pmtiles==3.8.1
style-data:
	@command -v ogr2ogr >/dev/null || $(MAKE) deps
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("pmtiles") != "3.8.1")' 2>/dev/null \
	  || python3 -m pip install --quiet $(STYLE_DATA_PIP)
	SHARED=$(abspath $(SHARED)) bash scripts/style-data/make.sh Examples/styles/data
	SHARED=$(abspath $(SHARED)) bash scripts/style-data/labels.sh Examples/styles/data
	SHARED=$(abspath $(SHARED)) bash scripts/style-data/make.sh --fixtures Tests/Fixtures/styles
	python3 scripts/style-data/variants.py

# MapLibre Native for the style benchmark, as servers without a GPU run it: pymgl 0.5.0 on Mesa's
# EGL (llvmpipe), EGL_PLATFORM=surfaceless. Not part of CI.
STYLE_BENCH_PACKAGES := libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 gdal-bin
STYLE_BENCH_PIP := pymgl==0.5.0 $(STYLE_DATA_PIP)
bench-styles-deps:
	@$(call apt-install,$(STYLE_BENCH_PACKAGES),style benchmark libraries)
	@if python3 -c 'import importlib.metadata as m, sys; sys.exit(not (m.version("pymgl") == "0.5.0" and m.version("pmtiles") == "3.8.1"))' 2>/dev/null; \
	then echo "style benchmark Python packages present: $(STYLE_BENCH_PIP)"; \
	else python3 -m pip install --quiet $(STYLE_BENCH_PIP); fi

# Benchmarks/styles/run.sh: Examples/styles/bright.json by MapLibre Native and by mapsnap, the
# same tiles and frames, one table. A mapsnap that does not build or fails a case is reported in
# the table and the Native half still runs.
STYLE_BENCH_RUNS ?= 9
STYLE_BENCH_THUMBS ?= 1000
bench-styles: bench-styles-deps
	$(SWIFT) build -c release --product mapsnap || echo "bench-styles: mapsnap did not build"
	$(SWIFT) build -c release --product mapsnap-bench || echo "bench-styles: mapsnap-bench did not build"
	SHARED=$(abspath $(SHARED)) bash Benchmarks/styles/run.sh --runs $(STYLE_BENCH_RUNS) --thumbs $(STYLE_BENCH_THUMBS)

peers: build
	MAPSNAP=$(CURDIR)/.build/release/mapsnap MAPSNAP_SCENES=$(CURDIR)/Benchmarks/scenes \
	  bash $(SHARED)/bench/peers/run_peers.sh

# Rewrites the golden images that are missing or whose pixels differ (the
# others keep their bytes), then checks every golden again without
# recording: the exit status says whether the goldens now pass. (A recording
# run always reports each rewritten golden as a failure, by design, so its own
# status is not the target's.) Look at each changed image before committing it.
record-goldens:
	MAPSNAP_SERVER=0 $(SWIFT) build --build-tests
	MAPSNAP_SERVER=0 MAPSNAP_RECORD=failed $(SWIFT) test --skip-build --filter GoldenImageTests \
	  || echo "record-goldens: recorded; checking the goldens without recording"
	@status=0; MAPSNAP_SERVER=0 MAPSNAP_RECORD=never $(SWIFT) test --skip-build --filter GoldenTests || status=$$?; \
	  echo "goldens changed by recording (look at each before committing):"; \
	  git status --short Golden/; \
	  exit $$status

clean:
	rm -rf .build helsinki.png helsinki-report.json

# Fuzzing (issue 12): libFuzzer targets (Sources/_MapSnapFuzzTargets) under
# the address sanitizer, built into their own path so that the normal build
# is untouched. `make fuzz` runs each target for FUZZ_SECONDS from its seed
# corpus (Fuzz/corpus); findings go to .build/fuzz/runs/artifacts/<target>/.
# Not part of CI (too slow); the reproducers run in `swift test` (FuzzTests).
# SwiftPM cannot link -sanitize=fuzzer into an executable (its main), so the
# target is instrumented for coverage and calls libFuzzer's LLVMFuzzerRunDriver
# from libclang_rt.fuzzer_no_main, found beside the Swift toolchain.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -Xswiftc -DMAPSNAP_FUZZ -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xcc -fsanitize=address -Xcc -fsanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp

.PHONY: fuzz-build fuzz
fuzz-build:
	@rt=$$(ls "$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$$(uname -m).a 2>/dev/null | tail -1); \
	if [ -z "$$rt" ]; then echo "fuzz-build: no libclang_rt.fuzzer_no_main beside $(SWIFT)" >&2; exit 2; fi; \
	echo "libFuzzer: $$rt"; \
	MAPSNAP_SERVER=0 $(SWIFT) build -c release --build-path .build/fuzz --product mapsnap-fuzz $(FUZZ_FLAGS) -Xlinker "$$rt" -Xlinker -lstdc++

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_KEEP_GOING=$(FUZZ_KEEP_GOING) bash scripts/fuzz.sh $(FUZZ_TARGETS)

# Installs the release binary with its fonts (scripts/dist.sh): PREFIX/bin/mapsnap,
# PREFIX/share/mapsnap/Fonts (found relative to the binary), docs in share/doc/mapsnap.
PREFIX ?= /usr/local
install: build
	bash scripts/dist.sh install "$(DESTDIR)$(PREFIX)"

# A relocatable tarball in .build/dist: the static-stdlib binary, its fonts,
# the C libraries it links (lib/, found through RUNPATH $ORIGIN/../lib),
# PROJ's database, LICENSE and the third-party notices.
dist: build server
	bash scripts/dist.sh dist .build/dist

# The tarball unpacked into a temporary folder and run from another working
# directory with an empty environment (scripts/test-dist.sh). A CI step.
test-dist: dist
	bash scripts/test-dist.sh "$$(ls -t .build/dist/mapsnap-*.tar.gz | head -1)"
