import ArgumentParser
import CommandLineSupport

extension FeatureScale: ExpressibleByArgument {}

/// `--features` and `--scale`: the columns a row is clustered by besides (or instead of) its
/// position, and how they are put on one scale (`cluster`, `bench`).
struct FeatureOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Cluster by these columns (GeoJSON properties), comma-separated, instead of the position alone: 1 to 64 of them, e.g. lat,lon,deposit,area_m2 (listings like each other and near each other). A coordinate column (x, y, lat, lon) among them stands for the position in metres (projected as --crs says; not with --metric geodesic); the file needs a position either way. HDBSCAN or DBSCAN (--eps then in scaled units).", valueName: "names"))
    var features: String?

    @Option(help: "How --features are scaled before distances are measured: standard (mean 0, standard deviation 1), robust (median 0, interquartile range 1) or none (metres and the columns' own units). The position's two axes share one spread, so map distances keep their shape.")
    var scale: FeatureScale?

    /// The `--features` names, trimmed; empty without the flag.
    var names: [String] {
        guard let features else { return [] }
        return features.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
    }

    /// The scale the features are put on (`standard` unless given).
    var effectiveScale: FeatureScale { scale ?? .standard }

    /// The list itself, and the methods it is clustered with (grid cells are a map's).
    func check(algorithms: [Algorithm]) throws {
        guard let features else {
            if scale != nil { throw ValidationError("--scale goes with --features (the columns to cluster by)") }
            return
        }
        if names.isEmpty || names.contains(where: \.isEmpty) {
            throw ValidationError("--features '\(features)' is invalid: give column names separated by commas, e.g. lat,lon,deposit")
        }
        if names.count > FeaturePoints.maximumDimensions {
            throw ValidationError("--features names \(names.count) columns: at most \(FeaturePoints.maximumDimensions)")
        }
        if algorithms.contains(.grid) {
            throw ValidationError("--features is for hdbscan and dbscan; grid cells are a map's")
        }
    }
}
