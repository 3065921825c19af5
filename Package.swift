// swift-tools-version: 6.1
// geocluster: clustering geographic points (real-estate listings first) and measuring
// how well and how fast each method does it.
//
// Data flows one way: input (Datasets) -> projection (Geo) -> index ... labels (ClusterCore)
// -> scores (ClusterMetrics) -> runs, timings and records (Harness) -> tables, maps, plots, HTML
// (Reports) -> the CLI (geocluster). The dependency graph below follows that flow but is not
// a chain: ClusterCore and ClusterMetrics depend on nothing (pure Swift), Datasets on Geo and the
// listing vocabulary, Harness on the modules below it, Reports on Harness, Geo and the
// vocabulary; no module imports against the flow. ListingVocabulary (ListingCategory,
// ValueRange, BoundingBox, AttributeFilter, own columns, WebMercator) is what every module
// says listings in. Pins (map pins per zoom level, privacy mask, supercluster baseline) sits
// beside the flow on the vocabulary and ClusterCore, with no Foundation and no C library, so an
// iOS or macOS app can embed it.
import PackageDescription

let package = Package(
    name: "geocluster",
    // The lowest systems the code compiles for, set by what it uses: ClusterCore's worker
    // threads share a counter through Synchronization's `Atomic`, available from macOS 15,
    // iOS 18, tvOS 18, watchOS 11 and visionOS 2 (the Swift 6 systems); nothing else in the
    // package needs more (typed throws needs no runtime support). Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // One product per use. An app that draws map pins depends on GeoclusterPins (Pins, its
    // vocabulary and ClusterCore: pure Swift, no Foundation, no C library, no PROJ or GEOS headers; proved by
    // `make consumer`), one that only clusters on GeoclusterCore; GeoclusterKit is everything
    // the CLI is made of, C libraries included. None of their targets has unsafeFlags.
    products: [
        .library(name: "GeoclusterPins", targets: ["Pins", "ListingVocabulary", "ClusterCore"]),
        .library(name: "GeoclusterCore", targets: ["ClusterCore"]),
        .library(
            name: "GeoclusterKit",
            targets: ["Geo", "ClusterCore", "ListingVocabulary", "Pins", "Datasets", "ClusterMetrics", "Harness", "Reports"]
        ),
        .executable(name: "geocluster", targets: ["geocluster"]),
        // The pins server, which `geocluster serve` runs: its own executable, so that the
        // command line's other commands link no HTTP stack (their start-up stays as it is).
        .executable(name: "geocluster-serve", targets: ["geocluster-serve"]),
        // The C-callable library the Python package loads (declared in GeoclusterCHeader's geocluster.h).
        .library(name: "GeoclusterCAPI", type: .dynamic, targets: ["GeoclusterCAPI"]),
    ],
    // An app that embeds the pins or the core depends on geocluster with `traits: []`: the
    // CommandLine trait is then off and SwiftPM resolves none of the command line's
    // dependencies (`make consumer` checks that nothing is resolved). Building this package
    // itself enables it by default.
    traits: [
        .trait(name: "CommandLine", description: "The geocluster command line and its dependency, swift-argument-parser"),
        .default(enabledTraits: ["CommandLine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the DocC catalogs of Pins and ClusterCore (swift package generate-documentation).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `geocluster serve` (the PinsServer target and the geocluster-serve executable): HTTP,
        // graceful shutdown, Prometheus metrics; swift-protobuf's vector tile message decodes
        // the server's tiles in its tests.
        // Without its default traits: no swift-configuration, no full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // The C APIs of PROJ and GEOS (reentrant only), loaded with dlopen on first use rather
        // than linked: linking them doubled every command's start-up (see the target's header).
        // Their headers must be on the default include path (Debian: libproj-dev, libgeos-dev;
        // Homebrew: export CPATH="$(brew --prefix)/include").
        .target(
            name: "CGeoLibraries",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The only Swift code that calls C libraries: projections (PROJ) and geometry (GEOS).
        .target(name: "Geo", dependencies: ["CGeoLibraries"]),
        // Pure Swift, no dependencies: every hot loop of HDBSCAN, DBSCAN and grid clustering.
        .target(name: "ClusterCore"),
        // What listings are said in, for every module: categories, ranges, boxes, attribute
        // filters, the caller's own columns, Web Mercator, and their parsing from text. Pure
        // Swift (ClusterCore's elementary maths): no Foundation, no C library.
        .target(name: "ListingVocabulary", dependencies: ["ClusterCore"]),
        // Zoom-level map pins cut from one single-linkage hierarchy over privacy-masked
        // positions, with queries and filters, plus a supercluster-compatible baseline. Pure
        // Swift on the vocabulary and ClusterCore: no Foundation, no C library.
        .target(name: "Pins", dependencies: ["ListingVocabulary", "ClusterCore"]),
        // Requests on a pin index as text gives them (a URL's query, the command line's
        // option values, the C API's arguments): parsed and validated once, then turned into
        // one index call (PinsCall) that the server, the CLI and the Python package share.
        // Pure Swift on Pins: no Foundation.
        .target(name: "PinsQueries", dependencies: ["Pins", "ListingVocabulary"]),
        // zlib, for gzip-compressed input (on every system; Debian: zlib1g-dev).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate, for the server's gzipped answers (Debian: libdeflate-dev).
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(name: "Datasets", dependencies: ["Geo", "ListingVocabulary", "CSystemTuning", "CZlib"]),
        .target(name: "ClusterMetrics"),
        // The C API's one declaration (include/geocluster.h): GeoclusterCAPI implements it and
        // is compiled against it, the Python package's ctypes table is checked against it.
        .target(name: "GeoclusterCHeader"),
        // HDBSCAN, DBSCAN and the pin index behind @_cdecl functions for the Python package
        // (ctypes); on ClusterCore and Pins only, no Foundation, so the Swift runtime links
        // statically into it.
        .target(name: "GeoclusterCAPI", dependencies: ["GeoclusterCHeader", "ClusterCore", "ClusterMetrics", "Pins", "PinsQueries"]),
        // Runs a method on a dataset (the run pipeline every command shares), benchmark cells
        // in their own processes, records and summaries; the map-pin glue (listing file to
        // PinIndex, the pins cell and the pins comparison).
        // SHA-256 is Harness's own (SHA256.swift): swift-crypto imports Foundation.
        .target(name: "Harness", dependencies: ["Geo", "ClusterCore", "Pins", "PinsQueries", "Datasets", "ClusterMetrics"]),
        // CSV tables, SVG maps and plots, the HTML report: from Harness records and Geo shapes.
        // SVG and HTML come from Reports' own XMLWriter, not Plot or swift-mustache: both import
        // Foundation, which the CLI leaves out for start-up time (see Geocluster.swift), and
        // Plot writes attribute values unescaped.
        .target(name: "Reports", dependencies: ["Harness", "Geo", "ClusterCore", "ClusterMetrics", "ListingVocabulary", "Datasets"]),
        // The layer between the executables and the libraries: a command's parsed request
        // becomes one call here (the commands whose work spans the runner and the writers:
        // bench, tree, map, privacy), and the modules requests are written in are re-exported,
        // so the command line imports this layer and its argument parser only.
        .target(
            name: "Requests",
            dependencies: ["Geo", "ClusterCore", "ListingVocabulary", "Pins", "PinsQueries", "Datasets", "ClusterMetrics", "Harness", "Reports"]
        ),
        // The C library tuned for geocluster: glibc's malloc thresholds (freed large arrays leave
        // the process, or for small inputs stay for the next stage to reuse) and fallocate, so
        // replacing an output file does not stall in rename.
        .target(name: "CSystemTuning"),
        // The address of Swift concurrency's global-enqueue hook, through which geocluster-serve
        // runs its request handlers on SwiftNIO's event loops (statically linked binaries
        // included, where SwiftNIO's own dlsym lookup cannot find it).
        .target(name: "CConcurrencyHook"),
        // What the geocluster and geocluster-serve executables share: the option groups (input
        // columns, the privacy mask's key and rule, own columns, threads) and the error messages.
        .target(
            name: "CommandLineSupport",
            dependencies: [
                "Requests", "CSystemTuning",
                .product(name: "ArgumentParser", package: "swift-argument-parser",
                         condition: .when(traits: ["CommandLine"])),
            ]
        ),
        // The pins server: a PinIndex behind HTTP (Hummingbird), vector tiles (gzipped by libdeflate),
        // GeoJSON, filters from query parameters, live reloads, metrics.
        .target(
            name: "PinsServer",
            dependencies: [
                "Pins", "PinsQueries", "Datasets", "Harness", "CDeflate",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["CommandLine"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["CommandLine"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["CommandLine"])),
            ],
        ),
        .executableTarget(
            name: "geocluster-serve",
            dependencies: [
                "PinsServer", "CommandLineSupport", "Harness", "Pins", "Datasets", "CConcurrencyHook",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLine"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["CommandLine"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["CommandLine"])),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["CommandLine"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["CommandLine"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CommandLine"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["CommandLine"])),
            ]
        ),
        .executableTarget(
            name: "geocluster",
            dependencies: [
                "CommandLineSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser",
                         condition: .when(traits: ["CommandLine"])),
            ]
        ),
        // The map-pin benchmark program (Benchmarks/PinsBench/main.swift says how to run it):
        // PinIndex build against HDBSCAN and the supercluster baseline, queries per zoom; its
        // clock and peak memory are Harness's.
        .executableTarget(name: "pins-bench", dependencies: ["Pins", "Datasets", "ClusterCore", "Harness"], path: "Benchmarks/PinsBench"),
        // Helpers every test target shares (the seeded test generator, fixture paths, temporary
        // folders); depends on nothing and is in no product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "TestSupport"]),
        .testTarget(name: "ClusterCoreTests", dependencies: ["ClusterCore", "TestSupport"]),
        .testTarget(name: "ListingVocabularyTests", dependencies: ["ListingVocabulary"]),
        .testTarget(name: "PinsTests", dependencies: ["Pins", "TestSupport"]),
        .testTarget(name: "PinsQueriesTests", dependencies: ["PinsQueries", "Pins", "TestSupport"]),
        .testTarget(name: "DatasetsTests", dependencies: ["Datasets", "Pins", "TestSupport"]),
        .testTarget(name: "ClusterMetricsTests", dependencies: ["ClusterMetrics", "TestSupport"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "Pins", "Datasets", "ClusterMetrics", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "Harness", "Pins", "TestSupport"]),
        .testTarget(name: "GeoclusterCLITests", dependencies: ["geocluster", "Pins", "TestSupport"]),
        .testTarget(
            name: "PinsServerTests",
            dependencies: [
                "PinsServer", "Pins", "Harness", "Datasets", "ClusterCore", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["CommandLine"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["CommandLine"])),
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["CommandLine"])),
            ],
            exclude: ["VectorTile/vector_tile.proto"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
