import Datasets
import Pins
import PinsQueries

/// `geocluster nearby`: the listings near a point, nearest first, by distance to each
/// listing's displayed position rounded to 100 m (so repeated queries cannot triangulate one).
public enum PinsNearby {
    /// The columns written, in order (lat,lon displayed), before the user's own (`--properties`).
    public static let header = ["id", "distance_m", "lat", "lon", "category", "area_m2", "deposit", "monthly_rent"]

    /// Builds the index, queries it and writes the listings to `request.output` (or returns them).
    /// - Throws: `DatasetError` (reading, writing), `PinError` (listings, options).
    public static func run(_ request: NearbyRequest) throws -> NearbyResult {
        if let output = request.output { try AtomicFile.checkDestination(output) }
        var recipe = PinsDataset.Recipe(input: request.input, source: request.source, minSamples: 1)
        recipe.reservedNames = Set(Self.header)
        let dataset = try PinsDataset.build(recipe, filter: request.filter)
        let index = dataset.index, data = dataset.source
        var query = PinsQuery()
        query.longitude = request.longitude; query.latitude = request.latitude; query.radius = request.radius
        query.filter = request.filter; query.limit = request.limit
        guard case let .nearby(page) = try PinsCall.call(.nearby, query, index: index) else { preconditionFailure("nearby answers nearby") }
        func text(_ v: Double?) -> String { v.map { FormatNumber.trimmed($0, decimals: 2) } ?? "" }
        let rows = page.listings.map { n -> [String] in
            let l = n.leaf
            return [data.idText(l.id), String(Int(n.distance)), FormatNumber.fixed(l.latitude, decimals: 7),
                    FormatNumber.fixed(l.longitude, decimals: 7), l.category.flatMap(ListingCategory.init(code:))?.rawValue ?? "",
                    text(l.area), text(l.deposit), text(l.monthlyRent)] + l.properties.map(propertyText)
        }
        let header = Self.header + dataset.propertyNames
        var result = NearbyResult(total: page.total, listed: rows.count)
        if let output = request.output {
            if GeoJSON.isGeoJSONPath(output) {
                try GeoJSON.write(CSVTable(path: output, header: header, rows: rows, lines: []), to: output)
            } else {
                try AtomicFile.write(CSV.format(header: header, rows: rows), to: output)
            }
        } else {
            result.text = CSV.format(header: header, rows: rows)
        }
        return result
    }
}

extension PinsNearby {
    /// A property value as a field: a number as its shortest text, a missing value empty.
    static func propertyText(_ value: PropertyValue?) -> String {
        switch value {
        case .number(let v)?: return FormatNumber.shortest(v)
        case .text(let t)?: return t
        case nil: return ""
        }
    }
}

/// What `PinsNearby.run` looks for: the `geocluster nearby` options.
public struct NearbyRequest {
    public var input: String
    public var source: PinSourceSettings
    /// The query point, degrees.
    public var longitude: Double
    public var latitude: Double
    /// Search radius, metres.
    public var radius: Double
    /// At most this many listings.
    public var limit: Int
    public var filter: AttributeFilter?
    /// CSV, or GeoJSON by extension; nil: the CSV text is returned for standard output.
    public var output: String?

    public init(input: String, source: PinSourceSettings, longitude: Double, latitude: Double, radius: Double = 5000,
                limit: Int = 100, filter: AttributeFilter? = nil, output: String? = nil) {
        self.input = input; self.source = source; self.longitude = longitude; self.latitude = latitude
        self.radius = radius; self.limit = limit; self.filter = filter; self.output = output
    }
}

/// What `PinsNearby.run` found.
public struct NearbyResult: Sendable, Equatable {
    /// Listings within the radius (all of them, not only those listed).
    public var total: Int
    /// Listings listed (at most the limit).
    public var listed: Int
    /// The CSV when no output file was given (for standard output), else nil.
    public var text: String?
}
