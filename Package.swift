// swift-tools-version:6.1
// mapsnap: map snapshots rendered to PNG on the CPU.
//
// Targets are grouped the way swift-numerics groups them: the public API first,
// then `_`-prefixed implementation targets that are not API, then tests and
// benchmarks.
import PackageDescription

// The HTTP server (`mapsnap serve`, the `mapsnap-server` executable) is built
// on Hummingbird and SwiftNIO, which take minutes to compile. It is part of
// the package unless MAPSNAP_SERVER=0: `make test` and the sanitizer builds
// set it, since the server is tested against its release build
// (`make test-serve`), and neither the `mapsnap` command nor its tests need it.
let withServer = Context.environment["MAPSNAP_SERVER"] != "0"

// The release binaries (mapsnap, mapsnap-server) link the Swift runtime,
// standard library and FoundationEssentials statically: ~15 fewer shared
// objects to map and relocate at start-up, and binaries that run without a
// Swift toolchain (`make dist`). Debug and sanitizer builds stay dynamic,
// since the test bundles load the toolchain's shared runtime.
// The static FoundationEssentials needs two of its own archives that
// `-static-stdlib` does not name.
let releaseLinking: [LinkerSetting] = [
  .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
  // `make dist` bundles the C libraries in `lib/` beside `bin/`. An
  // old-style DT_RPATH (not RUNPATH) so that it also serves the
  // libraries those load (FreeType's brotli).
  .unsafeFlags(
    ["-Xlinker", "-rpath", "-Xlinker", "$ORIGIN/../lib", "-Xlinker", "--disable-new-dtags"],
    .when(configuration: .release)),
  .linkedLibrary("_FoundationCShims", .when(configuration: .release)),
  .linkedLibrary("_FoundationCollections", .when(configuration: .release)),
]

let package = Package(
  name: "mapsnap",
  products: [
    .library(name: "MapSnap", targets: ["MapSnap"]),
    .executable(name: "mapsnap", targets: ["MapSnapCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    // MARK: - Public API

    /// The renderer as a library: scene → map state → display list → tiles → PNG.
    .target(
      name: "MapSnap",
      dependencies: [
        "_MapSnapRaster", "_MapSnapJSON", "_MapSnapStyle", "_PNGShims", "_JPEGShims", "_HashShims", "_TextShims", "_OGRShims", "_NetShims", "_SystemShims", "_LazyLibraries",
        "CFreeType", "CSQLite", "CPQ",
      ],
      // FreeType's headers live in their own folder (pkg-config's cflags);
      // the module is not linked (`_LazyLibraries`).
      swiftSettings: [.unsafeFlags(["-Xcc", "-I/usr/include/freetype2"])]
    ),
    /// The `mapsnap` command: argument parsing and exit statuses only.
    .executableTarget(
      name: "MapSnapCLI",
      dependencies: [
        "MapSnap",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      linkerSettings: releaseLinking
    ),

    // MARK: - Implementation details

    /// JSON as the scene and style formats read it: values with members in
    /// document order, a parser whose errors give line, column and path, the
    /// writer, and the "did you mean" edit distance.
    .target(name: "_MapSnapJSON"),

    /// Geometry (paths, stroking, dashing, clipping) and the cell rasteriser.
    .target(
      name: "_MapSnapRaster",
      dependencies: ["_SystemShims"],
      swiftSettings: [
        .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
      ]
    ),
    /// C shims that own libpng's setjmp/longjmp error handling, and the
    /// parallel zlib compression of the image data.
    /// The segments are deflated by zlib or by ISA-L's igzip (the `fast`
    /// preset), whose header comes from Debian's libisal-dev (`make setup`)
    /// and whose library `_LazyLibraries` opens on first use.
    .target(name: "_PNGShims", dependencies: ["CLibPNG", "_LazyLibraries", "_SystemShims"], linkerSettings: [.linkedLibrary("z")]),
    .systemLibrary(
      name: "CLibPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    /// System calls Swift's Glibc module does not declare (sched_getaffinity,
    /// mallopt), and the processor features the C shims choose code by
    /// (CPUID, asked once).
    .target(name: "_SystemShims"),
    /// SHA-256 blocks on the processor's SHA instructions (x86-64 SHA-NI),
    /// for the input digests; SHA256.swift falls back to its own code.
    .target(name: "_HashShims", dependencies: ["_SystemShims"]),
    /// HarfBuzz (shaping) and FriBidi (the Unicode bidi algorithm) behind a
    /// small C API. Not system library targets, for the reason PROJ is not
    /// one (below): SwiftPM would link them through pkg-config, and
    /// libharfbuzz brings GLib, Graphite and PCRE2 into every start-up. The
    /// shim reads their headers (Debian's libharfbuzz-dev and libfribidi-dev,
    /// installed by `make setup`) and opens the libraries with dlopen when
    /// the first text is shaped.
    .target(name: "_TextShims", linkerSettings: [.linkedLibrary("dl")]),
    /// GDAL/OGR (`ogr` sources: GeoPackage, Shapefile, FlatGeobuf, File
    /// Geodatabase, PostGIS) behind a small C API, opened with dlopen on the
    /// first `ogr` source for the same reason: libgdal loads some 150 shared
    /// libraries. Its headers come from Debian's libgdal-dev (`make setup`).
    .target(name: "_OGRShims", linkerSettings: [.linkedLibrary("dl")]),
    /// libcurl (http(s) style resources, Sources/MapSnap/Net) behind a small
    /// C API, opened with dlopen on the first request for the same reason:
    /// libcurl brings OpenSSL, nghttp2, libssh2 and more. Its header comes
    /// from Debian's libcurl4-openssl-dev (`make setup`).
    .target(name: "_NetShims", linkerSettings: [.linkedLibrary("dl")]),
    /// A C shim that owns libjpeg's setjmp/longjmp error handling (JPEG tiles).
    .target(name: "_JPEGShims", dependencies: ["CJPEG", "_LazyLibraries"]),
    /// SQLite, FreeType and libjpeg, called through their headers but opened
    /// with dlopen on first use: forwarders with their entry points' names
    /// (hidden), so that scenes that need none of them start without
    /// mapping five shared libraries (FreeType brings brotli). So the three
    /// system library targets below have no pkg-config name and their
    /// module maps no `link`: nothing links them. Their headers come from
    /// Debian's -dev packages (`make setup`): libjpeg62-turbo-dev,
    /// libsqlite3-dev and libfreetype-dev (whose include folder MapSnap's
    /// Swift settings name, as pkg-config would).
    /// libpq (PostGIS sources read without GDAL) and ISA-L (the `fast` PNG
    /// compression) are opened the same way.
    .target(name: "_LazyLibraries", dependencies: ["CSQLite", "CJPEG", "CPQ", "_SystemShims"], linkerSettings: [.linkedLibrary("dl")]),
    .systemLibrary(name: "CJPEG"),
    // PROJ (sources with a `crs`) is deliberately not a system library
    // target: SwiftPM would link it through pkg-config, and libproj pulls in
    // some 45 shared libraries at start-up. It is opened with dlopen on first
    // use instead (Sources/MapSnap/Data/CRSTransform.swift); `make setup`
    // installs Debian's libproj25 and proj-data.
    /// SQLite, for MBTiles tile sets and GeoPackages (opened read-only).
    .systemLibrary(name: "CSQLite"),
    /// FreeType, for glyph outlines and metrics.
    .systemLibrary(name: "CFreeType"),
    /// libpq, for PostGIS sources (`PostGISReader`); its header from Debian's
    /// libpq-dev (`make setup`), the library opened on first use.
    .systemLibrary(name: "CPQ"),
    /// zlib, for gzip-compressed vector tiles and PMTiles directories
    /// (libpng links it already, so it costs no start-up).
    .systemLibrary(name: "CZlib"),
    /// MapLibre / Mapbox GL styles as data: the specification's property
    /// reference, the style document and its validation, the expression
    /// language, and vector tiles (MVT, PMTiles). No drawing: the renderer
    /// (`MapSnap`) resolves a style into its map state with these.
    .target(name: "_MapSnapStyle", dependencies: ["_MapSnapJSON", "CZlib"]),
    /// The static map API without HTTP: the Mapbox Static Images URL grammar
    /// and its JSON body, overlays (pins, encoded polylines, GeoJSON with
    /// simplestyle), the served folder, the image cache, and the renderer
    /// that answers a request (`mapsnap-server` puts HTTP around it).
    .target(name: "_MapSnapServe", dependencies: ["MapSnap", "_ServeShims"]),
    /// JPEG (libjpeg-turbo) and WebP (libwebp) encoders for the server's
    /// outputs, linked outright: the server's start-up does not count, and
    /// the CLI does not link them. Headers from Debian's libjpeg62-turbo-dev
    /// and libwebp-dev (`make setup`).
    .target(name: "_ServeShims", linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("webp")]),
    /// Golden-image comparison and fixtures shared by the test bundles.
    .target(name: "_MapSnapTestSupport", dependencies: ["MapSnap", "_MapSnapRaster"]),
    /// The fuzz targets: each feeds one input (a scene, a GeoJSON file, a
    /// PNG, a tile set's metadata…) to the library through its public API.
    /// Run by `mapsnap-fuzz` and replayed by the FuzzTests.
    .target(name: "_MapSnapFuzzTargets", dependencies: ["MapSnap", "_MapSnapStyle", "_MapSnapServe", "CSQLite"]),

    // MARK: - Tests

    .testTarget(name: "RasterTests", dependencies: ["_MapSnapRaster"]),
    /// The style layer: expressions (with the style-spec conformance tests),
    /// validation, vector tiles and PMTiles.
    .testTarget(name: "StyleTests", dependencies: ["_MapSnapStyle"], exclude: ["validation-pass-count.txt", "expression-pass-count.txt"]),
    .testTarget(name: "MapSnapTests", dependencies: ["MapSnap", "_MapSnapTestSupport"]),
    .testTarget(name: "GoldenTests", dependencies: ["MapSnap", "_MapSnapTestSupport"]),
    .testTarget(name: "CLITests", dependencies: ["MapSnapCLI", "_MapSnapTestSupport"]),
    /// The static map API's grammar, overlays, encoders and renderer (the
    /// HTTP server itself: scripts/test-serve.py, `make test-serve`).
    .testTarget(name: "ServeTests", dependencies: ["_MapSnapServe", "_MapSnapTestSupport"]),
    /// Every fuzz reproducer (Tests/Fixtures/fuzz) and a few seeds of each corpus, replayed.
    .testTarget(name: "FuzzTests", dependencies: ["_MapSnapFuzzTargets"]),

    // MARK: - Benchmarks

    .executableTarget(
      name: "mapsnap-bench",
      dependencies: ["MapSnap"],
      path: "Benchmarks/MapSnapBench"
    ),

    // MARK: - Fuzzing

    /// `mapsnap-fuzz TARGET …`: libFuzzer's driver when built by `make
    /// fuzz-build` (-DMAPSNAP_FUZZ, ASan, coverage, libFuzzer linked in);
    /// in a normal build, replays files through a target.
    .executableTarget(
      name: "mapsnap-fuzz",
      dependencies: ["_MapSnapFuzzTargets"],
      path: "Sources/MapSnapFuzz"
    ),
  ]
)

// MARK: - The server

if withServer {
  package.products.append(.executable(name: "mapsnap-server", targets: ["MapSnapServer"]))
  package.dependencies += [
    // No traits: neither swift-configuration nor the full Foundation.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
  ]
  package.targets += [
    /// `mapsnap-server DIR`, which `mapsnap serve` hands over to: the static
    /// map API (`_MapSnapServe`) over HTTP on Hummingbird, with the render
    /// queue, the image cache and the Prometheus metrics.
    .executableTarget(
      name: "MapSnapServer",
      dependencies: [
        "_MapSnapServe",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      linkerSettings: releaseLinking
    )
  ]
}
