// swift-tools-version: 6.1
// geocluster: clustering geographic points (real-estate listings first) and measuring
// how well and how fast each method does it. Data flows one way through the modules:
// Geo -> ClusterCore -> Metrics -> Harness -> Reports -> geocluster (CLI); see README.md.
import PackageDescription

let package = Package(
    name: "geocluster",
    platforms: [.macOS(.v15)],
    products: [
        .library(
            name: "GeoclusterKit",
            targets: ["Geo", "ClusterCore", "Datasets", "Metrics", "Harness", "Reports"]
        ),
        .executable(name: "geocluster", targets: ["geocluster"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .target(name: "Datasets", dependencies: ["Geo", "CAllocator"]),
        .target(name: "Metrics"),
        .target(name: "Harness", dependencies: ["Geo", "ClusterCore", "Datasets", "Metrics"]),
        .target(name: "Reports", dependencies: ["Harness", "Geo"]),
        // glibc's malloc settings: a fixed mmap threshold so freed large arrays leave the
        // process, or, for small inputs, freed memory kept for the next stage to reuse.
        .target(name: "CAllocator"),
        .executableTarget(
            name: "geocluster",
            dependencies: [
                "Geo", "ClusterCore", "Datasets", "Metrics", "Harness", "Reports", "CAllocator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "GeoTests", dependencies: ["Geo"]),
        .testTarget(name: "ClusterCoreTests", dependencies: ["ClusterCore"]),
        .testTarget(name: "DatasetsTests", dependencies: ["Datasets"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics"]),
        .testTarget(name: "GeoclusterCLITests", dependencies: ["geocluster"]),
    ],
    swiftLanguageModes: [.v6]
)
