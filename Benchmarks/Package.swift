// swift-tools-version: 6.1
// Benchmarks for geocluster, kept in their own package so that building and testing the main
// package never pulls in the benchmark tooling. Run from the repository root with `make bench`
// (or `cd Benchmarks && swift package benchmark`).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone's folder name is not fixed.
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().standardizedFileURL.lastPathComponent

let package = Package(
    name: "geocluster-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ClusterCoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "GeoclusterKit", package: rootPackage),
            ],
            path: "Benchmarks/ClusterCoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "DatasetsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "GeoclusterKit", package: rootPackage),
            ],
            path: "Benchmarks/DatasetsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "PinsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "GeoclusterKit", package: rootPackage),
            ],
            path: "Benchmarks/PinsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
