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
        // System libraries: the C APIs of GEOS (reentrant only) and PROJ, found with pkg-config.
        .systemLibrary(
            name: "CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
        ),
        .systemLibrary(
            name: "CPROJ",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"]), .brew(["proj"])]
        ),
        // The only Swift code that calls C: projections (PROJ) and geometry (GEOS).
        .target(name: "Geo", dependencies: ["CGEOS", "CPROJ"]),
        // Pure Swift, no dependencies: every hot loop of HDBSCAN, DBSCAN and grid clustering.
        .target(name: "ClusterCore"),
        .target(name: "Datasets", dependencies: ["Geo"]),
        .target(name: "Metrics"),
        .target(name: "Harness", dependencies: ["Geo", "ClusterCore", "Datasets", "Metrics"]),
        .target(name: "Reports", dependencies: ["Harness", "Geo"]),
        // One C function: pins glibc's mmap threshold so freed large arrays leave the process.
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
