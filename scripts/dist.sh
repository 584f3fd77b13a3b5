#!/usr/bin/env bash
# Lays out mapsnap as it installs, and packs it:
#
#   scripts/dist.sh install PREFIX [BINARY]   # PREFIX/bin/mapsnap, PREFIX/share/mapsnap/Fonts, docs
#   scripts/dist.sh dist OUTDIR [BINARY]      # OUTDIR/mapsnap-VERSION-linux-ARCH.tar.gz, relocatable
#
# `make install PREFIX=…` and `make dist` run it after the release build.
#
# The layout, which the binary finds relative to its own folder
# (FontLibrary.bundledDirectory, CRSTransform's PROJ data):
#
#   bin/mapsnap                  the static-stdlib release binary (RUNPATH $ORIGIN/../lib)
#   share/mapsnap/Fonts/         the bundled fonts and their licences
#   share/doc/mapsnap/           LICENSE, THIRD_PARTY_NOTICES.md, README.md and docs/ (the
#                                pages and images the README links to)
#   lib/                         dist only: the C libraries it links (libpng, zlib,
#                                FreeType with brotli, SQLite, libjpeg-turbo, ISA-L), so a node
#                                needs only glibc, libstdc++ and libgcc_s
#   share/proj/                  dist only, when proj-data is installed: PROJ's database
#                                (libproj itself is not bundled: scenes with a `crs`
#                                need Debian's libproj25 on the node)
#
# `install` bundles no libraries: an installed mapsnap uses the system's
# (Debian: libpng16-16 zlib1g libfreetype6 libsqlite3-0 libjpeg62-turbo libisal2).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}; dest=${2:-}; binary=${3:-.build/release/mapsnap}
[ -n "$mode" ] && [ -n "$dest" ] || { echo "usage: $0 install PREFIX [BINARY] | dist OUTDIR [BINARY]" >&2; exit 2; }
[ -x "$binary" ] || { echo "$0: no binary at $binary (run: swift build -c release --product mapsnap)" >&2; exit 1; }
server=$(dirname "$binary")/mapsnap-server

layout() {  # layout ROOT
  local root=$1
  install -d "$root/bin" "$root/share/mapsnap/Fonts" "$root/share/doc/mapsnap"
  install -m 755 "$binary" "$root/bin/mapsnap"
  # The HTTP server `mapsnap serve` hands over to, when it is built (make server).
  [ ! -x "$server" ] || install -m 755 "$server" "$root/bin/mapsnap-server"
  install -m 644 Fonts/*.ttf Fonts/*-LICENSE.txt Fonts/README.md "$root/share/mapsnap/Fonts/"
  install -m 644 LICENSE THIRD_PARTY_NOTICES.md README.md "$root/share/doc/mapsnap/"
  install -d "$root/share/doc/mapsnap/docs/images"
  install -m 644 docs/*.md docs/*.json "$root/share/doc/mapsnap/docs/"
  install -m 644 docs/images/* "$root/share/doc/mapsnap/docs/images/"
}

case $mode in
  install)
    layout "$dest"
    echo "installed $dest/bin/mapsnap and $dest/share/mapsnap/Fonts"
    ;;
  dist)
    version=$("$binary" --version)
    name=mapsnap-$version-linux-$(uname -m)
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    root=$stage/$name
    layout "$root"
    install -d "$root/lib"
    # Every shared library the binary loads except the C runtime's own
    # (glibc, libstdc++, libgcc_s, libm, the loader), which every node has.
    { ldd "$binary"; [ ! -x "$server" ] || ldd "$server"; } | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u | while read -r lib; do
      case $(basename "$lib") in
        libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|ld-linux*|libpthread.so.*|libdl.so.*) continue ;;
      esac
      cp -L "$lib" "$root/lib/$(basename "$lib")"
    done
    # HarfBuzz and FriBidi (Sources/_TextShims), SQLite, FreeType, libjpeg
    # and ISA-L (Sources/_LazyLibraries) are opened with dlopen on first use,
    # so ldd of the binary does not list them: bundle them and what they
    # load. dlopen searches the binary's DT_RPATH ($ORIGIN/../lib) first.
    for soname in libharfbuzz.so.0 libfribidi.so.0 libsqlite3.so.0 libfreetype.so.6 libjpeg.so.62 libisal.so.2; do
      # awk reads all of ldconfig's output (no early exit): under pipefail,
      # ldconfig killed by SIGPIPE would fail the pipeline (status 141).
      lib=$(ldconfig -p | awk -v n="$soname" '$1 == n && /x86-64|x86_64|aarch64/ && !found { print $NF; found = 1 }')
      [ -n "$lib" ] || { echo "dist: $soname not found (make setup installs it)" >&2; exit 1; }
      { echo "$lib"; ldd "$lib" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'; } | while read -r dep; do
        case $(basename "$dep") in
          libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|ld-linux*|libpthread.so.*|libdl.so.*) continue ;;
        esac
        [ -e "$root/lib/$(basename "$dep")" ] || cp -L "$dep" "$root/lib/$(basename "$dep")"
      done
    done
    if [ -f /usr/share/proj/proj.db ]; then
      install -d "$root/share/proj"
      cp -L /usr/share/proj/proj.db /usr/share/proj/proj.ini "$root/share/proj/" 2>/dev/null || cp -L /usr/share/proj/proj.db "$root/share/proj/"
    fi
    install -d "$dest"
    tar -C "$stage" -czf "$dest/$name.tar.gz" "$name"
    echo "$dest/$name.tar.gz"
    ;;
  *) echo "usage: $0 install PREFIX [BINARY] | dist OUTDIR [BINARY]" >&2; exit 2 ;;
esac
