import Datasets
import Pins

/// A listing file as `PinListings`, and the way back from a listing id to the file's id text:
/// the adapter between Datasets' reader and Pins' index that every map-pin command and the
/// pins cell share.
///
/// Nothing else of the file is kept: the index holds every attribute a pin or leaf shows, and
/// the file's numeric columns become the listings' without a copy, so the listings and the
/// file are never both in memory.
public struct PinSource: Sendable {
    /// The listings, until `takeListings()` hands them to the index.
    public private(set) var listings: PinListings
    /// Listings read (less those dropped by `PinSourceSettings.skipBadRows`).
    public private(set) var count: Int
    /// The listing attributes the file has a column for (a filter on another is refused).
    public let attributes: Set<ListingAttribute>
    /// The file's id texts, and the rows sorted by listing id: only when some id text is not
    /// the decimal form of its 64-bit integer (then the id is a hash of its text); otherwise
    /// each id is its own text and nothing is kept.
    private let texts: [String]?
    private let rowsByID: [(id: Int64, row: Int32)]

    /// Reads the listing file at `path` and checks its location keys: an empty key is refused
    /// naming the file's lines, or with `skipBadRows` those listings are dropped and counted in
    /// a warning. (A listing whose position conflicts with its key is left out by the index on
    /// its own, `PinIndex.setAside`: `PinSourceSettings.report(_:source:)` names them.)
    /// - Parameters:
    ///   - locationColumn: the column whose value makes listings one location; nil:
    ///     `building_id` when the file has it, else the true coordinate.
    ///   - columns: the coordinate and id columns and the separator (`ListingFile.read`).
    ///   - filter: the attribute filter the listings will be queried with; the file must have
    ///     each attribute it tests.
    /// - Throws: `DatasetError` reading (`.missingFilterColumn` for a filter on an absent
    ///   attribute); `HarnessError.location` for the keys.
    public static func read(path: String, locationColumn: String?, columns: ReadOptions = ReadOptions(), filter: AttributeFilter? = nil,
                            properties: PropertySelection = .none, skipBadRows: Bool = false,
                            warn: (String) -> Void = { _ in }) throws -> PinSource {
        let file = try ListingFile.read(path: path, locationColumn: locationColumn ?? "building_id",
                                        required: locationColumn != nil, options: columns, filter: filter, properties: properties)
        let lines = file.lines, keys = file.locations, column = file.locationColumn ?? ""
        var source = PinSource(file: file)
        guard let keys else { return source }
        let fileIDs = source.listings.ids           // by file row
        func lineList(_ rows: [Int]) -> String {
            let shown = rows.sorted().prefix(10).map { String(lines[$0]) }
            return (rows.count == 1 ? "line " : "lines ") + shown.joined(separator: ", ") + (rows.count > 10 ? ", …" : "")
        }
        let empty = keys.indices.filter { keys[$0].allSatisfy { $0 == " " } }
        if !empty.isEmpty {
            let what = "\(path): \(lineList(empty)): the location column '\(column)' is empty (\(empty.count) listing\(empty.count == 1 ? "" : "s"))"
            guard skipBadRows else {
                throw HarnessError.location(what + "; give each listing its building's id, or drop those rows (--skip-bad-rows)")
            }
            warn(what + "; dropped (--skip-bad-rows)")
            source.listings.removeListings(withIDs: Set(empty.map { fileIDs[$0] }))
            source.count = source.listings.count
        }
        return source
    }

    /// - Parameter idsAreRows: use each listing's 0-based row as its id instead of the id
    ///   column (the benchmark's cells, which score labels by row).
    public init(file: consuming ListingFile, idsAreRows: Bool = false) {
        count = file.count
        attributes = file.attributes
        var ids = [Int64](); ids.reserveCapacity(count)
        var canonical = true
        if idsAreRows {
            ids = (0..<Int64(count)).map { $0 }
        } else {
            for text in file.ids {
                let id = Self.listingID(text)
                ids.append(id)
                if canonical && String(id) != text { canonical = false }
            }
        }
        if canonical {
            texts = nil
            rowsByID = []
        } else {
            texts = file.ids
            rowsByID = ids.enumerated().map { (id: $1, row: Int32($0)) }.sorted { $0.id < $1.id }
        }
        file.ids = []
        let keys = file.locations.map { $0.map(LocationKey.init(string:)) }
        file.locations = nil
        let categories = file.categories.map { $0?.code ?? ListingCategory.noneCode }
        file.categories = []
        listings = PinListings(ids: ids, longitudes: file.longitudes, latitudes: file.latitudes, locationKeys: keys,
                               categories: categories, areas: file.areas, deposits: file.deposits, monthlyRents: file.rents)
        listings.properties = file.properties
    }

    /// The listings, handed over (this source keeps none), so that the index build can free
    /// each column once used.
    public mutating func takeListings() -> PinListings {
        defer { listings = PinListings() }
        return listings
    }

    /// A listing's 64-bit id: the id text as an integer when it is one, else its FNV-1a hash
    /// (so the index's order, and so the output, depends on the ids, not on the row order).
    public static func listingID(_ text: String) -> Int64 {
        if let v = Int64(text) { return v }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return Int64(bitPattern: h)
    }

    /// The file's id text of a listing id.
    public func idText(_ id: Int64) -> String {
        guard let texts else { return String(id) }
        var lo = 0, hi = rowsByID.count
        while lo < hi { let m = (lo + hi) / 2; if rowsByID[m].id < id { lo = m + 1 } else { hi = m } }
        return lo < rowsByID.count && rowsByID[lo].id == id ? texts[Int(rowsByID[lo].row)] : String(id)
    }
}

extension ListingFile {
    /// Drops every column (the caller has taken the ones it needs).
    mutating func release() {
        ids = []; longitudes = []; latitudes = []; categories = []; areas = []; deposits = []; rents = []; locations = nil
    }
}

extension PinIndex {
    /// Every listing under each of `pins` as (displayed longitude, latitude, the pin's position
    /// in `pins`), paging through `leaves(of:)`.
    public func leafPositions(of pins: [Pin]) throws(PinError) -> (longitudes: [Double], latitudes: [Double], labels: [Int32]) {
        var lon: [Double] = [], lat: [Double] = [], label: [Int32] = []
        for (k, pin) in pins.enumerated() {
            var cursor: PinCursor? = nil
            repeat {
                let page = try leaves(of: pin.id, limit: 4096, cursor: cursor)
                for leaf in page.leaves { lon.append(leaf.longitude); lat.append(leaf.latitude); label.append(Int32(k)) }
                cursor = page.next
            } while cursor != nil
        }
        return (lon, lat, label)
    }

    /// Each row's pin at `zoom` (its position in `pins(zoom:)`), for an index whose listing ids
    /// are rows 0..<count (`PinSource(file:idsAreRows: true)`); -1 for a row in no pin.
    public func rowLabels(zoom: Int, count: Int) throws(PinError) -> (pins: [Pin], labels: [Int32]) {
        let all = try pins(zoom: Double(zoom))
        var labels = [Int32](repeating: -1, count: count)
        for (k, pin) in all.enumerated() {
            var cursor: PinCursor? = nil
            repeat {
                let page = try leaves(of: pin.id, limit: 4096, cursor: cursor)
                for leaf in page.leaves { labels[Int(leaf.id)] = Int32(k) }
                cursor = page.next
            } while cursor != nil
        }
        return (all, labels)
    }
}

/// Where the map-pin commands' listings come from and how they are masked: the location
/// column, the key, the rule (points shared by at least K locations, or the weak plain
/// annulus) and the mask file (the `pins`, `nearby`, `map --zoom` and `privacy` options).
public struct PinSourceSettings: Sendable {
    /// The column whose value makes listings one location; nil: `building_id` when the file
    /// has it, else the true coordinate.
    public var locationColumn: String?
    /// The latitude, longitude and id columns and the field separator (`--lat-column`,
    /// `--lon-column`, `--id-column`, `--delimiter`); nil names: the usual ones.
    public var columns = ReadOptions()
    /// The privacy mask's secret key; nil: true positions.
    public var key: PinsKey?
    /// The shared-point rule (`--min-anonymity`, `--anonymity-cap`); nil: the weak plain
    /// annulus (`--weak-plain-mask`).
    public var rule: AnonymityRule? = .standard
    /// The weak annulus's smallest and largest displacement, metres.
    public var minOffset: Double = 30
    public var maxOffset: Double = 80
    /// The mask file that keeps every published location's displayed position (`--mask`);
    /// nil: none (each run places every location afresh).
    public var maskFile: String?
    /// Accept a mask file made with another key or rule (`--remask`).
    public var remask: Bool
    /// How far apart the listings of one location key may lie, metres
    /// (`PinOptions.locationTolerance`, `--location-tolerance`).
    public var locationTolerance: Double = PinOptions.defaultLocationTolerance
    /// Drop the listings of an empty location key with a warning instead of refusing the file
    /// (`--skip-bad-rows`).
    public var skipBadRows = false
    /// Worker threads for the index build (the same result for any number).
    public var threads = 1
    /// The user's own columns read and carried to leaves and nearby answers (`--properties`).
    public var properties = PropertySelection.none
    /// Receives warnings (what `remask` changed, listings left out), for standard error.
    public var warn: @Sendable (String) -> Void = { _ in }

    public init(locationColumn: String? = nil, key: PinsKey?, maskFile: String? = nil, remask: Bool = false) {
        self.locationColumn = locationColumn
        self.key = key
        self.maskFile = maskFile
        self.remask = remask
    }

    /// The privacy policy the settings say, without the mask file (see `policy(for:)`).
    public func policy() throws(PinError) -> PrivacyPolicy {
        guard let key else { return .disabled }
        guard let rule else { return .displaced(try PrivacyMask.weakAnnulus(key: key, minDistance: minOffset, maxDistance: maxOffset)) }
        return .displaced(PrivacyMask(key: key, sharing: rule))
    }

    /// Reads `input` into listings for a `PinIndex`, its location keys checked (see
    /// `PinSource.read(path:locationColumn:columns:filter:skipBadRows:warn:)`).
    /// - Parameter filter: the attribute filter the listings will be queried with: a filter
    ///   on an attribute the file has no column for is refused before anything is built.
    public func read(_ input: String, filter: AttributeFilter? = nil) throws -> PinSource {
        try PinSource.read(path: input, locationColumn: locationColumn, columns: columns, filter: filter,
                           properties: properties, skipBadRows: skipBadRows, warn: warn)
    }

    /// The index options for these settings: `policy` and the location tolerance.
    /// - Parameter tileSize: the tiles' side in pixels that the zoom levels count (256, or 512
    ///   for MapLibre's and Mapbox GL's zoom levels).
    public func options(privacy policy: PrivacyPolicy, radius: Double = PinOptions.defaultRadius, minSamples: Int = 1,
                        tileSize: Double = 256, discSizing: DiscSizing = .count) -> PinOptions {
        PinOptions(privacy: policy, radius: radius, tileSize: tileSize, discSizing: discSizing, minSamples: minSamples, threads: threads,
                   locationTolerance: locationTolerance)
    }

    /// Warns about the listings a build left out (`PinIndex.setAside`), naming them by id.
    public func report(_ setAside: SetAside, source: PinSource, input: String) {
        func ids(_ list: [Int64]) -> String {
            list.prefix(10).map { source.idText($0) }.joined(separator: ", ") + (list.count > 10 ? ", …" : "")
        }
        let c = setAside.conflicting, h = setAside.heldBack
        if !c.isEmpty {
            warn("\(input): \(c.count) listing\(c.count == 1 ? "" : "s") left out: not where \(c.count == 1 ? "its" : "their") location "
                 + "(building id) is (farther than --location-tolerance \(FormatNumber.trimmed(locationTolerance, decimals: 1)) m from its "
                 + "other listings, or from where it is published); ids \(ids(c))")
        }
        let u = setAside.mergedUnits
        if !u.isEmpty {
            let keys = u.reduce(0) { $0 + $1.count }
            let sets = u.prefix(10).map { $0.map { source.idText($0) }.joined(separator: " + ") }.joined(separator: "; ")
            warn("\(input): \(keys) location keys lie within \(Int(PrivacyMask.unitRadius)) m of one another and are published as "
                 + "\(u.count) place\(u.count == 1 ? "" : "s"), each at one point (a building's units with keys of their own, whose "
                 + "building id belongs in --location-column, or neighbours closer than that); a listing of each key: "
                 + "\(sets)\(u.count > 10 ? "; …" : "")")
        }
        if !h.isEmpty, let rule {
            warn("\(input): \(h.count) listing\(h.count == 1 ? "" : "s") held back: \(h.count == 1 ? "its" : "their") location has too few "
                 + "compatible locations within --anonymity-cap \(Int(rule.cap)) m to share a point with (\(rule.minimum - 1) others, or "
                 + "\(rule.minimum) times its keys for a place of several keys); published once enough arrive (ids \(ids(h)))")
        }
    }
}
