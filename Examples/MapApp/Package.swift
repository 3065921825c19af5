// swift-tools-version: 6.1
// A map app's use of geocluster, simulated: it depends on the GeoclusterPins product only
// (Pins, ListingVocabulary and ClusterCore: no Foundation, no C library), as an iOS or macOS app would.
// Run it from this folder: swift run MapApp. CI builds a copy of it in a temporary folder with
// the path below pointed at the repository (scripts/dev/consumer.sh, `make consumer`).
import PackageDescription

let package = Package(
    name: "MapApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // traits: [] leaves the command line's trait off, so nothing else is resolved.
        .package(name: "geocluster", path: "../..", traits: []),
    ],
    targets: [
        .executableTarget(
            name: "MapApp",
            dependencies: [.product(name: "GeoclusterPins", package: "geocluster")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
