#!/usr/bin/env bash
# The relocatable tarball of `make dist`, tested the way a CI image or a
# cluster node uses it: unpacked into a temporary folder, run from another
# working directory with an empty environment (no PATH, no HOME, no
# MAPSNAP_FONT_DIR), so nothing of the build tree or the toolchain helps.
#
#   scripts/test-dist.sh TARBALL
#
# Checks: the binary loads no Swift runtime library and resolves its C
# libraries from the tarball's lib/; a scene with labels renders from the
# tarball's fonts (the same pixels as the build tree's binary); without
# share/mapsnap/Fonts the same scene fails with the font error naming the
# installed path (so the fonts really came from the tarball).
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$(readlink -f "${1:?usage: $0 TARBALL}")
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-dist: FAIL: $*" >&2; exit 1; }

tar -C "$work" -xzf "$tarball"
root=$(echo "$work"/mapsnap-*)
bin=$root/bin/mapsnap
mkdir -p "$work/run"
# Examples/helsinki.json: areas, roads and labels; its sources are
# data/… relative to the scene, so the scene and data/ move together.
mkdir -p "$work/scene"
cp Examples/helsinki.json "$work/scene/scene.json"
cp -r Examples/data "$work/scene/data"

libs=$(env -i "$(command -v ldd)" "$bin")
grep -q "libswift" <<< "$libs" && fail "the binary loads a Swift runtime library: $libs"
grep -q "libFoundation" <<< "$libs" && fail "the binary loads Foundation: $libs"
# SQLite, FreeType, libjpeg and ISA-L are opened on first use, not at start-up.
for lib in libsqlite3 libfreetype libjpeg libbrotli libisal; do
  grep -q "$lib" <<< "$libs" && fail "the binary loads $lib at start-up (it should be opened on first use): $libs"
done
outside=$(echo "$libs" | grep "=>" | grep -Ev "^\s*(libc|libm|libstdc\+\+|libgcc_s)\.so|linux-vdso" | grep -v "$root/bin/../lib/" || true)
[ -z "$outside" ] || fail "libraries resolve outside the tarball's lib/: $outside"

cd "$work/run"
env -i LD_DEBUG=libs "$bin" ../scene/scene.json --scale 8000 -o out.png --report report.json 2>ld-frame.txt ||
  fail "render from the tarball failed: $(grep -v '^ *[0-9]*:' ld-frame.txt | tail -3)"
[ -s out.png ] || fail "no out.png"
# The frame (800×600: several segments) is deflated by the tarball's ISA-L.
grep -q "calling init: $root/bin/../lib/libisal.so.2" ld-frame.txt || fail "libisal.so.2 was not loaded from the tarball's lib/: $(grep libisal ld-frame.txt | head -3)"
"$repo/.build/release/mapsnap" ../scene/scene.json --scale 8000 -o expected.png
"$repo/.build/release/mapsnap" diff out.png expected.png >/dev/null || fail "the tarball's image differs from the build tree's"
grep -q '"placed": *[1-9]' report.json || fail "the report has no placed labels"

# Text in four scripts, shaped by the tarball's own HarfBuzz and FriBidi
# and drawn with its FreeType (opened with dlopen, so ldd above does not
# show them).
cp "$repo/Golden/scripts/scene.json" "$work/scene/scripts.json"
env -i LD_DEBUG=libs "$bin" ../scene/scripts.json -o scripts.png 2>ld.txt || fail "the scripts scene failed from the tarball"
for lib in libharfbuzz.so.0 libfribidi.so.0 libfreetype.so.6; do
  grep -q "calling init: $root/bin/../lib/$lib" ld.txt || fail "$lib was not loaded from the tarball's lib/: $(grep "$lib" ld.txt | head -3)"
done
"$repo/.build/release/mapsnap" diff scripts.png "$repo/Golden/scripts/2000.png" >/dev/null || fail "the tarball's scripts image differs from the golden"

# JPEG tiles from an MBTiles file, read by the tarball's own SQLite and
# libjpeg, opened on first use.
mkdir -p "$work/scene/tiles-jpeg" "$work/Examples/data/tiles"
cp "$repo/Golden/tiles-jpeg/scene.json" "$work/scene/tiles-jpeg/scene.json"
cp "$repo/Examples/data/tiles/world-3857-jpeg.mbtiles" "$work/Examples/data/tiles/"
env -i LD_DEBUG=libs "$bin" ../scene/tiles-jpeg/scene.json --scale 73957190.94894437 -o jpeg.png 2>ld-jpeg.txt || fail "the JPEG tiles scene failed from the tarball"
for lib in libsqlite3.so.0 libjpeg.so.62; do
  grep -q "calling init: $root/bin/../lib/$lib" ld-jpeg.txt || fail "$lib was not loaded from the tarball's lib/: $(grep "$lib" ld-jpeg.txt | head -3)"
done
"$repo/.build/release/mapsnap" diff jpeg.png "$repo/Golden/tiles-jpeg/73957190.94894437.png" >/dev/null || fail "the tarball's JPEG tiles image differs from the golden"

# `mapsnap serve` from the tarball: mapsnap-server beside mapsnap, with no
# Swift runtime and its libraries (libjpeg, libwebp) from lib/, answers a
# frame over HTTP with an empty environment.
server=$root/bin/mapsnap-server
[ -x "$server" ] || fail "the tarball has no bin/mapsnap-server (make server before make dist)"
slibs=$(env -i "$(command -v ldd)" "$server")
grep -q "libswift" <<< "$slibs" && fail "mapsnap-server loads a Swift runtime library: $slibs"
soutside=$(echo "$slibs" | grep "=>" | grep -Ev "^\s*(libc|libm|libstdc\+\+|libgcc_s)\.so|linux-vdso" | grep -v "$root/bin/../lib/" || true)
[ -z "$soutside" ] || fail "mapsnap-server's libraries resolve outside the tarball's lib/: $soutside"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env -i "$bin" serve ../scene --port "$port" 2>serve.txt &
spid=$!
for _ in $(seq 100); do python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/health')" 2>/dev/null && break; sleep 0.1; done
python3 -c "import urllib.request; open('served.jpg', 'wb').write(urllib.request.urlopen('http://127.0.0.1:$port/scene/scale/24.9414,60.1719,8000/200x150.jpg').read())" ||
  fail "mapsnap serve from the tarball did not answer: $(cat serve.txt)"
kill -TERM "$spid"
wait "$spid" || fail "mapsnap serve from the tarball did not exit 0 on SIGTERM"
[ "$(head -c 2 served.jpg | od -An -tx1 | tr -d ' ')" = ffd8 ] || fail "mapsnap serve from the tarball gave no JPEG"

mv "$root/share/mapsnap/Fonts" "$work/Fonts.moved"
if env -i "$bin" ../scene/scene.json --scale 8000 -o nofonts.png 2>err.txt; then fail "rendered without share/mapsnap/Fonts: fonts came from elsewhere"; fi
grep -q "share/mapsnap/Fonts" err.txt || fail "the font error does not name the installed folder: $(cat err.txt)"
[ ! -e nofonts.png ] || fail "a failed render left nofonts.png"
# `make install`'s layout (no bundled libraries: the system's) works the same way.
bash "$repo/scripts/dist.sh" install "$work/prefix" "$repo/.build/release/mapsnap" >/dev/null
env -i "$work/prefix/bin/mapsnap" ../scene/scene.json --scale 8000 -o installed.png || fail "render from the installed layout failed"
"$repo/.build/release/mapsnap" diff installed.png expected.png >/dev/null || fail "the installed binary's image differs"

echo "test-dist: ok ($(du -h "$tarball" | cut -f1) tarball; rendered from $root with an empty environment)"
