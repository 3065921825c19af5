import Datasets
import Pins
import PinsQueries

/// `geocluster pins`: the map pins of a listing file at some zooms, written as one GeoJSON
/// FeatureCollection (every position a displayed one; no true coordinate is written).
public enum PinsExport {
    /// Builds the index and writes every zoom's pins to `request.output` (whole or not at all).
    /// - Parameter progress: told each stage as it starts ("building the index of …").
    /// - Throws: `DatasetError` (reading, writing), `PinError` (listings, options).
    public static func write(_ request: PinsRequest, progress: (String) -> Void = { _ in }) throws -> PinsSummary {
        try AtomicFile.checkDestination(request.output)
        var recipe = PinsDataset.Recipe(input: request.input, source: request.source, radius: request.radius, minSamples: request.minSamples,
                                        tileSize: request.tileSize)
        recipe.discSizing = request.discSizing
        let dataset = try PinsDataset.build(recipe, filter: request.filter, progress: progress)
        let index = dataset.index, data = dataset.source, names = dataset.propertyNames
        var writer = try GeoJSONWriter(path: request.output)
        var written: [(zoom: Int, pins: Int)] = []
        for z in request.zooms {
            progress("writing the pins of zoom \(z)")
            var query = PinsQuery()
            query.zoom = Double(z); query.bbox = request.bbox; query.filter = request.filter
            guard case let .pins(pins, _) = try PinsCall.call(.pins, query, index: index) else { preconditionFailure("pins answers pins") }
            for pin in pins {
                try PinFeature.write(pin, zoom: z, index: index, names: names, source: data, filter: request.filter,
                                     leaves: request.leaves, to: &writer)
            }
            written.append((z, pins.count))
        }
        try writer.commit()
        return PinsSummary(listings: dataset.shown, locations: index.locationCount, pinsPerZoom: written)
    }
}

/// One pin as a GeoJSON feature (the properties `geocluster pins --help` lists).
enum PinFeature {
    /// The properties every pin feature has, whatever the input's columns.
    static let builtInNames: Set<String> = [
        "zoom", "id", "kind", "count", "diameter", "expansion_zoom", "same_location", "bbox", "median_deposit",
        "median_monthly_rent", "categories", "listing_id", "category", "area_m2", "deposit", "monthly_rent", "leaves",
    ]

    /// The names the user's own columns are written under: their own, but `own_NAME` for one
    /// that is already a pin property (a column named `count` must not overwrite the count),
    /// with a warning naming each.
    static func ownNames(_ names: [String], reserved: Set<String> = builtInNames, warn: (String) -> Void) -> [String] {
        names.map { name in
            guard reserved.contains(name) else { return name }
            warn("your column '\(name)' has the name of a property the output has already; written as 'own_\(name)'")
            return "own_" + name
        }
    }

    static func write(_ pin: Pin, zoom: Int, index: PinIndex, names: [String], source: PinSource, filter: AttributeFilter?,
                      leaves: Bool, to w: inout GeoJSONWriter) throws {
        w.beginFeature(lon: pin.longitude, lat: pin.latitude, decimals: 7)
        w.property("zoom", zoom)
        w.property("id", String(pin.id.rawValue))
        w.property("kind", pin.kind.rawValue)
        w.property("count", pin.count)
        w.property("diameter", pin.diameter, decimals: 1)
        w.property("expansion_zoom", json: pin.expansionZoom.map { .number(String($0)) } ?? .null)
        w.property("same_location", json: .bool(pin.sameLocation))
        let b = pin.bbox
        w.property("bbox", json: .array([b.minLongitude, b.minLatitude, b.maxLongitude, b.maxLatitude].map { number($0, 7) }))
        w.property("median_deposit", json: pin.medianDeposit.map { number($0, 2) } ?? .null)
        w.property("median_monthly_rent", json: pin.medianMonthlyRent.map { number($0, 2) } ?? .null)
        w.property("categories", json: .object(pin.categoryCounts.nonZero.compactMap { code, count in
            ListingCategory(code: code).map { JSONMember(key: $0.rawValue, value: .number(String(count))) }
        }))
        writeSummaries(pin, names: names, to: &w)
        if pin.listingID != nil, let leaf = try index.listing(of: pin) {
            // The listing's own attributes, from the index (which holds them for leaves): the
            // listing that passed the filter, not the first of its building.
            writeListing(leaf, names: names, source: source, to: &w)
        }
        if leaves { w.property("leaves", json: .array(try leafIDs(pin, index: index, source: source, filter: filter))) }
        try w.endFeature()
    }

    /// A listing's properties: its id as the file writes it, its attributes and own columns.
    static func writeListing(_ leaf: PinLeaf, names: [String], source: PinSource, to w: inout GeoJSONWriter) {
        w.property("listing_id", id: source.idText(leaf.id))
        w.property("category", json: leaf.category.flatMap(ListingCategory.init(code:)).map { .string($0.rawValue) } ?? .null)
        w.property("area_m2", json: leaf.area.map { number($0, 2) } ?? .null)
        w.property("deposit", json: leaf.deposit.map { number($0, 2) } ?? .null)
        w.property("monthly_rent", json: leaf.monthlyRent.map { number($0, 2) } ?? .null)
        for (name, value) in zip(names, leaf.properties) { w.property(name, json: json(value)) }
    }

    /// The ids of a pin's listings that pass `filter`, as JSON numbers where the id text is a
    /// plain integer within ±(2^53 − 1) (``JSONText/isSafeInteger(_:)``), else as strings.
    static func leafIDs(_ pin: Pin, index: PinIndex, source: PinSource, filter: AttributeFilter?) throws -> [JSONValue] {
        var ids: [JSONValue] = []
        var cursor: PinCursor? = nil
        repeat {
            let page = try index.leaves(of: pin.id, limit: 4096, cursor: cursor, filter: filter)
            for leaf in page.leaves {
                let text = source.idText(leaf.id)
                ids.append(JSONText.isSafeInteger(text) ? .number(text) : .string(text))
            }
            cursor = page.next
        } while cursor != nil
        return ids
    }

    /// The pin's summaries of the user's own columns, as MapLibre's `clusterProperties` would
    /// give them: `NAME_min`, `NAME_median`, `NAME_max` for numbers, `NAME_counts` (listings
    /// per text, texts in order) for a column of few texts; nothing for a column with none.
    static func writeSummaries(_ pin: Pin, names: [String], to w: inout GeoJSONWriter) {
        for (name, summary) in zip(names, pin.properties) {
            switch summary {
            case let .numbers(lo, median, hi):
                w.property(name + "_min", json: .number(FormatNumber.shortest(lo)))
                w.property(name + "_median", json: .number(FormatNumber.shortest(median)))
                w.property(name + "_max", json: .number(FormatNumber.shortest(hi)))
            case .counts(let counts):
                w.property(name + "_counts", json: .object(counts.sorted { $0.key < $1.key }.map {
                    JSONMember(key: $0.key, value: .number(String($0.value)))
                }))
            case .none:
                continue
            }
        }
    }

    /// A property value as JSON: a number as the shortest text that reads back the same, a
    /// text as a string, a missing value as null.
    static func json(_ value: PropertyValue?) -> JSONValue {
        switch value {
        case .number(let v)?: return .number(FormatNumber.shortest(v))
        case .text(let t)?: return .string(t)
        case nil: return .null
        }
    }

    /// A number rounded to `decimals` places, trailing zeros dropped, as JSON.
    static func number(_ v: Double, _ decimals: Int) -> JSONValue { .number(FormatNumber.trimmed(v, decimals: decimals)) }
}

/// What `PinsExport.write` writes: the `geocluster pins` options.
public struct PinsRequest {
    public var input: String
    public var source: PinSourceSettings
    /// Merge threshold in pixels of 256-pixel tiles.
    public var radius: Double
    /// HDBSCAN's min_samples for the hierarchy (the location itself counted).
    public var minSamples: Int
    /// The zooms, ascending.
    public var zooms: [Int]
    /// Only pins whose centroid lies in the box.
    public var bbox: BoundingBox?
    /// Query-time filter: pins over the listings that pass.
    public var filter: AttributeFilter?
    /// Add each pin's listing ids.
    public var leaves: Bool
    public var output: String
    /// The tiles' side in pixels that the zoom levels count (256, or 512 as MapLibre counts).
    public var tileSize: Double = 256
    /// How the app sizes the discs, which sets how far apart pins are cut.
    public var discSizing: DiscSizing = .count

    public init(input: String, source: PinSourceSettings, radius: Double = PinOptions.defaultRadius, minSamples: Int = 2, zooms: [Int],
                bbox: BoundingBox? = nil, filter: AttributeFilter? = nil, leaves: Bool = false, output: String) {
        self.input = input; self.source = source; self.radius = radius; self.minSamples = minSamples
        self.zooms = zooms; self.bbox = bbox; self.filter = filter; self.leaves = leaves; self.output = output
    }
}

/// What `PinsExport.write` wrote.
public struct PinsSummary: Sendable, Equatable {
    /// Listings shown (those a build set aside are not).
    public var listings: Int
    /// Displayed points they are shown at (a shared point counts once).
    public var locations: Int
    /// Pins per zoom, in the request's order.
    public var pinsPerZoom: [(zoom: Int, pins: Int)]

    /// What `geocluster pins` reports on standard error (before the output's name).
    public var report: String {
        "\(listings) listings shown at \(locations) points; pins per zoom: "
            + pinsPerZoom.map { "z\($0.zoom) \($0.pins)" }.joined(separator: ", ")
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.listings == b.listings && a.locations == b.locations
            && a.pinsPerZoom.elementsEqual(b.pinsPerZoom) { $0.zoom == $1.zoom && $0.pins == $1.pins }
    }
}
