import Geo
import ListingVocabulary

/// Output formats for generated listings, chosen by file extension.
public enum ListingFormat: String, Sendable {
    case csv
    case geoJSON

    /// `.csv` or `-` (standard output) → CSV, `.geojson` or `.json` → GeoJSON (any case);
    /// nil otherwise.
    public init?(path: String) {
        if GeoJSON.isGeoJSONPath(path) { self = .geoJSON; return }
        guard path.lowercased().hasSuffix(".csv") || path == AtomicFile.standardOutput else { return nil }
        self = .csv
    }
}

/// What a generation run produced.
public struct GenerationSummary: Sendable, Equatable {
    /// The scenario and seed generated.
    public var scenario: Scenario
    public var seed: UInt64
    /// Listings generated (the requested count).
    public var generated: Int
    /// Listings written (those passing the filter).
    public var kept: Int
    /// Clusters in the model.
    public var clusters: Int
    /// Background listings generated (truth −1).
    public var background: Int
    /// Clusters with at least one listing written, and background listings written: the
    /// counts after the filter.
    public var keptClusters: Int
    public var keptBackground: Int
}

/// Writing generated listings: the streaming pipeline of `geocluster generate`.
///
/// CSV columns, in order: `id,lat,lon,x,y,truth,category,area_m2,deposit,monthly_rent,floor,building_id`
/// (degrees to 6 decimals, metres in EPSG:5179 to 2, area to 2, the rest integers); the
/// `world` scenario has no `x,y` (``Scenario/writesProjectedXY``).
/// GeoJSON: one Point feature per listing, coordinates [lon, lat] to 6 decimals, the other
/// columns as properties in the same order.
public enum GeneratedListings {
    /// The CSV header.
    public static let columns = ["id", "lat", "lon", "x", "y", "truth", "category", "area_m2",
                                 "deposit", "monthly_rent", "floor", "building_id"]

    /// The CSV header of `scenario`'s files: ``columns``, without `x,y` where the scenario
    /// writes none.
    public static func columns(for scenario: Scenario) -> [String] {
        scenario.writesProjectedXY ? columns : columns.filter { $0 != "x" && $0 != "y" }
    }

    /// Listings generated, projected and written per chunk.
    public static let chunkSize = 65_536

    /// Generates `model`'s listings and writes those passing `filter` to `path`, chunk by
    /// chunk: generate 64k listings, project them (one PROJ call), filter, append to the
    /// writer. Memory stays at one chunk plus the writer's buffer, whatever the count.
    /// - Throws: `.outputFolderMissing` or `.writeFailed` (before anything is generated when
    ///   the folder is missing), `.noRowsKept` when the filter keeps nothing (with the
    ///   scenario and seed in place of a path), region errors; nothing is left at `path`.
    /// - Complexity: O(count · log K) time.
    public static func write(
        model: ScenarioModel, to path: String, format: ListingFormat, filter: ListingFilter? = nil
    ) throws(DatasetError) -> GenerationSummary {
        let active = (filter?.isEmpty ?? true) ? nil : filter
        let projection = model.scenario.writesProjectedXY ? try makeProjection(path) : nil
        let xy = projection != nil
        var generator = ListingGenerator(model: model)
        var kept = 0, keptBackground = 0
        var keptClusters = Set<Int32>()
        func tally(_ chunk: ListingChunk) {
            kept += chunk.count
            for t in chunk.truth { if t < 0 { keptBackground += 1 } else { keptClusters.insert(t) } }
        }
        switch format {
        case .csv:
            var out = try CSVWriter(path: path)
            try out.header(columns(for: model.scenario))
            while let chunk = try nextChunk(&generator, projection, active, path) {
                tally(chunk)
                for i in 0..<chunk.count {
                    out.field(chunk.ids[i])
                    out.field(chunk.lat[i], decimals: 6); out.field(chunk.lon[i], decimals: 6)
                    if xy { out.field(chunk.x[i], decimals: 2); out.field(chunk.y[i], decimals: 2) }
                    out.field(Int(chunk.truth[i])); out.field(chunk.category[i].rawValue)
                    out.field(chunk.area[i], decimals: 2)
                    out.field(chunk.deposit[i]); out.field(chunk.rent[i]); out.field(chunk.floor[i])
                    out.field(chunk.buildingID[i])
                    try out.endRow()
                }
            }
            try check(kept, model)
            try out.commit()
        case .geoJSON:
            var out = try GeoJSONWriter(path: path)
            while let chunk = try nextChunk(&generator, projection, active, path) {
                tally(chunk)
                for i in 0..<chunk.count {
                    out.beginFeature(lon: chunk.lon[i], lat: chunk.lat[i], decimals: 6)
                    out.property("id", chunk.ids[i])
                    if xy { out.property("x", chunk.x[i], decimals: 2); out.property("y", chunk.y[i], decimals: 2) }
                    out.property("truth", Int(chunk.truth[i])); out.property("category", chunk.category[i].rawValue)
                    out.property("area_m2", chunk.area[i], decimals: 2)
                    out.property("deposit", chunk.deposit[i]); out.property("monthly_rent", chunk.rent[i])
                    out.property("floor", chunk.floor[i]); out.property("building_id", chunk.buildingID[i])
                    try out.endFeature()
                }
            }
            try check(kept, model)
            try out.commit()
        }
        return GenerationSummary(scenario: model.scenario, seed: model.seed, generated: model.count, kept: kept,
                                 clusters: model.clusterCount, background: model.backgroundCount,
                                 keptClusters: keptClusters.count, keptBackground: keptBackground)
    }

    /// All of `model`'s listings in memory, projected where the scenario has x,y (for the
    /// harness and tests).
    /// - Complexity: O(count · log K) time, O(count) memory.
    public static func generate(model: ScenarioModel) throws(DatasetError) -> ListingChunk {
        let projection = model.scenario.writesProjectedXY ? try makeProjection("scenario \(model.scenario.rawValue)") : nil
        var generator = ListingGenerator(model: model)
        var all = ListingChunk()
        while let chunk = try nextChunk(&generator, projection, nil, "") { all.append(chunk) }
        return all
    }

    /// The filter's verdict on each listing of a projected chunk.
    public static func mask(_ chunk: ListingChunk, filter: ListingFilter) throws(DatasetError) -> [Bool] {
        var mask = [Bool](repeating: true, count: chunk.count)
        for i in 0..<chunk.count {
            if let set = filter.attributes.categories, !set.contains(chunk.category[i]) { mask[i] = false; continue }
            if !filter.attributes.numbersPass(area: chunk.area[i], deposit: Double(chunk.deposit[i]), monthlyRent: Double(chunk.rent[i])) {
                mask[i] = false; continue
            }
            if let box = filter.bbox, !box.contains(longitude: chunk.lon[i], latitude: chunk.lat[i]) { mask[i] = false }
        }
        if let region = filter.region {
            let inside = try region.covers(lon: chunk.lon, lat: chunk.lat)
            for i in 0..<chunk.count where !inside[i] { mask[i] = false }
        }
        return mask
    }

    private static func makeProjection(_ path: String) throws(DatasetError) -> Projection {
        do { return try Projection(crs: Scenario.projectedCRS) } catch {
            throw .writeFailed(path: path, reason: "cannot set up the projection to \(Scenario.projectedCRS): \(error)")
        }
    }

    /// The next chunk, projected (given a projection) and filtered; nil when the generator is done.
    private static func nextChunk(
        _ generator: inout ListingGenerator, _ projection: Projection?, _ filter: ListingFilter?, _ path: String
    ) throws(DatasetError) -> ListingChunk? {
        guard var chunk = generator.next(maxCount: chunkSize) else { return nil }
        if let projection {
            do { try chunk.project(with: projection) } catch {
                throw .writeFailed(path: path, reason: "projecting to \(Scenario.projectedCRS) failed: \(error)")
            }
        }
        guard let f = filter else { return chunk }
        return chunk.keeping(try mask(chunk, filter: f))
    }

    private static func check(_ kept: Int, _ model: ScenarioModel) throws(DatasetError) {
        if kept == 0 {
            throw .noRowsKept(path: "generated \(model.scenario.rawValue) listings (seed \(model.seed))", total: model.count)
        }
    }
}
