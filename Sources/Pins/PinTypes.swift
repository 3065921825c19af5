// The values a PinIndex is built from and answers with.

// The listing vocabulary (categories, ranges, boxes, own columns, Web Mercator) is part of
// this module's API: an app that imports Pins has it without a second import.
@_exported import ListingVocabulary

/// The one error type of Pins. Messages say what to change; none repeats a true coordinate.
public enum PinError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option or argument is outside its valid range.
    case invalidParameter(name: String, value: String, requirement: String)
    /// A listing's coordinate is unusable; `row` is 0-based in input order.
    case invalidCoordinate(row: Int, reason: String)
    /// Two listings share an id; ids must be unique.
    case duplicateListingID(Int64)
    /// A pin id that this index did not produce.
    case unknownPin(PinID)
    /// A cursor from another query or another index.
    case invalidCursor

    /// The vocabulary's refusal of a value, as a pin error naming the same field.
    public init(_ invalid: InvalidValue) {
        self = .invalidParameter(name: invalid.name ?? "value", value: invalid.value, requirement: invalid.reason)
    }

    public var description: String {
        switch self {
        case let .invalidParameter(name, value, requirement):
            return "\(name) = \(value) is invalid: \(requirement)"
        case let .invalidCoordinate(row, reason):
            // Deliberately no coordinate values: they are true positions.
            return "listing row \(row): \(reason); fix or drop that row"
        case let .duplicateListingID(id):
            return "listing id \(id) appears more than once; give every listing its own id"
        case let .unknownPin(id):
            return "no pin with id \(id.rawValue) in this index; use ids from this index's own queries"
        case .invalidCursor:
            return "the cursor belongs to another query; pass the cursor the previous page returned, or nil for the first page"
        }
    }
}

/// Listings to index, column by column (about 58 bytes a listing). Missing numeric
/// attributes are nil when appended (NaN in the columns of `init(ids:…)`); a listing without a
/// value fails any filter on it.
///
/// `PinIndex.init(listings:options:)` consumes the listings: handed over without a copy kept
/// elsewhere (`PinIndex(listings: consume listings, …)`, or listings built just for the index),
/// each column is freed as soon as the build has used it, so the listings and the finished index
/// are not both held in memory.
public struct PinListings: Sendable {
    /// The caller's listing ids, unique.
    public internal(set) var ids: [Int64] = []
    /// True positions in degrees. Read once, by the mask; the index keeps none of them.
    var longitudes: [Double] = []
    var latitudes: [Double] = []
    /// Location keys as `LocationKey`'s tag and value; tag 0: none (the quantised true
    /// coordinate is the key). Two columns rather than `[LocationKey?]`: 9 bytes a listing, not 24.
    var keyTags: [UInt8] = []
    var keyValues: [UInt64] = []
    /// Category codes 0..<16 (`ListingCategory.noneCode` when absent).
    var categories: [UInt8] = []
    /// Floor area (m²), deposit and monthly rent (in the caller's money unit), NaN when absent.
    var areas: [Double] = []
    var deposits: [Double] = []
    var rents: [Double] = []
    /// The caller's own columns, one value per listing each (see `ListingProperties`); set
    /// them after the listings are complete.
    public var properties = ListingProperties()

    /// No listings; reserve room for `capacity`.
    public init(capacity: Int = 0) {
        ids.reserveCapacity(capacity); longitudes.reserveCapacity(capacity); latitudes.reserveCapacity(capacity)
        keyTags.reserveCapacity(capacity); keyValues.reserveCapacity(capacity); categories.reserveCapacity(capacity)
        areas.reserveCapacity(capacity); deposits.reserveCapacity(capacity); rents.reserveCapacity(capacity)
    }

    /// Listings from whole columns, one element per listing. The arrays are kept as they are
    /// (no copy): columns a caller already holds, such as a file reader's, become the listings'.
    /// - Parameters:
    ///   - ids: the caller's listing ids, unique.
    ///   - longitudes: true longitudes in degrees (WGS 84).
    ///   - latitudes: true latitudes in degrees (WGS 84).
    ///   - locationKeys: one per listing, or nil: the quantised true coordinates are the keys
    ///     (for a mix of both, use `append`).
    ///   - categories: codes 0..<16, `ListingCategory.noneCode` where absent; nil: none at all.
    ///   - areas: floor areas in m², NaN where absent; nil: absent for every listing.
    ///   - deposits: deposits, NaN where absent; nil: absent for every listing.
    ///   - monthlyRents: monthly rents, NaN where absent; nil: absent for every listing.
    ///
    /// Values are validated when the index is built, as with `append`.
    /// - Precondition: every column given has `ids.count` elements.
    /// - Complexity: O(n) for the columns not given and the keys; O(1) for the others.
    public init(ids: [Int64], longitudes: [Double], latitudes: [Double], locationKeys: [LocationKey]? = nil,
                categories: [UInt8]? = nil, areas: [Double]? = nil, deposits: [Double]? = nil, monthlyRents: [Double]? = nil) {
        let n = ids.count
        func check(_ name: String, _ count: Int?) {
            precondition(count == nil || count == n, "PinListings: \(name) has \(count ?? 0) elements for \(n) ids; give one per listing")
        }
        check("longitudes", longitudes.count); check("latitudes", latitudes.count); check("locationKeys", locationKeys?.count)
        check("categories", categories?.count); check("areas", areas?.count); check("deposits", deposits?.count)
        check("monthlyRents", monthlyRents?.count)
        self.ids = ids
        self.longitudes = longitudes
        self.latitudes = latitudes
        if let locationKeys {
            keyTags = locationKeys.map { UInt8($0.tag) }
            keyValues = locationKeys.map(\.value)
        } else {
            keyTags = [UInt8](repeating: 0, count: n)
            keyValues = [UInt64](repeating: 0, count: n)
        }
        self.categories = categories ?? [UInt8](repeating: ListingCategory.noneCode, count: n)
        self.areas = areas ?? [Double](repeating: .nan, count: n)
        self.deposits = deposits ?? [Double](repeating: .nan, count: n)
        self.rents = monthlyRents ?? [Double](repeating: .nan, count: n)
    }

    /// The number of listings.
    public var count: Int { ids.count }

    /// Adds one listing.
    /// - Parameters:
    ///   - id: the caller's id, returned in leaves and single-listing pins.
    ///   - longitude: the true longitude in degrees (WGS 84).
    ///   - latitude: the true latitude in degrees (WGS 84).
    ///   - locationKey: listings with one key are one location (one building pin, one
    ///     displacement); nil uses the true coordinate quantised to 1e-6°.
    ///   - category: a code 0..<16: a `ListingCategory.code`, or one of the caller's choosing.
    ///   - area: floor area in m².
    ///   - deposit: in the caller's money unit (the CLI's is 10,000 KRW).
    ///   - monthlyRent: in the caller's money unit; 0 for a lease without rent (jeonse).
    ///
    /// Values are validated when the index is built.
    /// - Complexity: amortised O(1).
    public mutating func append(id: Int64, longitude: Double, latitude: Double, locationKey: LocationKey? = nil,
                                category: UInt8? = nil, area: Double? = nil, deposit: Double? = nil,
                                monthlyRent: Double? = nil) {
        ids.append(id); longitudes.append(longitude); latitudes.append(latitude)
        keyTags.append(locationKey.map { UInt8($0.tag) } ?? 0); keyValues.append(locationKey?.value ?? 0)
        categories.append(category ?? ListingCategory.noneCode)
        areas.append(area ?? .nan); deposits.append(deposit ?? .nan); rents.append(monthlyRent ?? .nan)
    }

    /// Listing i's location key: its own, or its quantised true coordinate.
    @inline(__always)
    func key(_ i: Int) -> LocationKey {
        keyTags[i] == 0 ? LocationKey(longitude: longitudes[i], latitude: latitudes[i])
            : LocationKey(tag: UInt64(keyTags[i]), value: keyValues[i])
    }
}

/// A pin's id: 64 bits derived from its content (the smallest location token of its
/// listings and its listing count, through SipHash), so the same group of listings has the
/// same id at every zoom and in every rebuild from the same listings in any order. Under a
/// privacy mask the tokens are keyed by their own key derived from the secret `PinsKey` (not
/// the mask's), so ids reveal nothing either, not even a test of a guessed mask key.
public struct PinID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 64 bits (the command line writes them as a decimal string).
    public let rawValue: UInt64
    /// The id with these 64 bits (as a pin of this index returned it, to look it up again).
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "\(rawValue)" }
}

/// What a pin stands for.
public enum PinKind: String, Sendable, Hashable {
    /// Listings at several locations.
    case cluster
    /// Several listings at one location (one building): open a list, zooming never splits it.
    case building
    /// One listing.
    case listing
}

/// Counts of listings per category code (0..<16), stored inline (no allocation per pin).
public struct PinCategoryCounts: Sendable, Hashable {
    var counts: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                 UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// No listings in any category.
    public init() {}

    /// The number of listings of category `code` (0 for codes outside 0..<16).
    public subscript(code: UInt8) -> Int {
        get {
            guard Int(code) < ListingCategory.codeCount else { return 0 }
            return withUnsafeBytes(of: counts) { Int($0.load(fromByteOffset: 4 * Int(code), as: UInt32.self)) }
        }
        set {
            guard Int(code) < ListingCategory.codeCount else { return }
            withUnsafeMutableBytes(of: &counts) { $0.storeBytes(of: UInt32(newValue), toByteOffset: 4 * Int(code), as: UInt32.self) }
        }
    }

    /// (code, count) for every code with a nonzero count, ascending.
    public var nonZero: [(code: UInt8, count: Int)] {
        (0..<UInt8(ListingCategory.codeCount)).compactMap { self[$0] > 0 ? ($0, self[$0]) : nil }
    }

    public static func == (a: Self, b: Self) -> Bool {
        withUnsafeBytes(of: a.counts) { x in withUnsafeBytes(of: b.counts) { y in x.elementsEqual(y) } }
    }

    public func hash(into h: inout Hasher) { withUnsafeBytes(of: counts) { h.combine(bytes: $0) } }
}

/// One pin at one zoom: a group of listings drawn as one disc. Every position is a
/// displayed (privacy-masked) one.
public struct Pin: Sendable, Hashable {
    /// Stable across zooms and rebuilds (see `PinID`).
    public var id: PinID
    /// What it stands for: a cluster, a building (several listings at one location) or one listing.
    public var kind: PinKind
    /// Whether all its listings share one location (`building` or `listing`): zooming in
    /// never splits it, so a client opens its list.
    public var sameLocation: Bool { kind != .cluster }
    /// The number of listings (those passing the filter, in a filtered query).
    public var count: Int
    /// The count-weighted centroid of its listings' displayed positions, in degrees (the
    /// mean in Web Mercator, mapped back).
    public var longitude: Double
    /// The latitude of the centroid, degrees (see `longitude`).
    public var latitude: Double
    /// The bounding box of its listings' displayed positions.
    public var bbox: BoundingBox
    /// The first zoom at which it splits into its children (`children(of:)`); nil for
    /// same-location pins. `PinIndex.maxZoom + 1` means its listings come apart only beyond
    /// the deepest zoom: show its list.
    public var expansionZoom: Int?
    /// The zooms at which this pin is shown (unfiltered).
    public var zooms: ClosedRange<Int>
    /// The drawn diameter in points (see `PinOptions.diameter(count:)`).
    public var diameter: Double
    /// The listing's id when `count == 1`.
    public var listingID: Int64?
    /// Medians over the listings that have the value (the mean of the two middle values for an
    /// even number); nil when none has it.
    public var medianDeposit: Double?
    /// The median monthly rent, as `medianDeposit`.
    public var medianMonthlyRent: Double?
    /// Listings per category code.
    public var categoryCounts: PinCategoryCounts
    /// Summaries of the caller's own columns over the pin's listings, in
    /// `PinIndex.propertyNames` order; empty when the listings have none.
    public var properties: [PropertySummary] = []
}

/// One listing as a pin's leaf or a nearby result: its displayed position and attributes.
public struct PinLeaf: Sendable, Hashable {
    /// The caller's listing id.
    public var id: Int64
    /// The displayed longitude in degrees (never the true one).
    public var longitude: Double
    /// The displayed latitude in degrees (never the true one).
    public var latitude: Double
    /// Category code, or nil.
    public var category: UInt8?
    /// Floor area in m², or nil.
    public var area: Double?
    /// Deposit in the caller's unit, or nil.
    public var deposit: Double?
    /// Monthly rent in the caller's unit, or nil.
    public var monthlyRent: Double?
    /// The listing's values in the caller's own columns, in `PinIndex.propertyNames` order
    /// (nil where missing); empty when the listings have none.
    public var properties: [PropertyValue?] = []
}

/// Where the next page of `leaves` or `nearby` starts.
public struct PinCursor: Sendable, Hashable {
    /// Which query it belongs to (a pin id, or a hash of the nearby query).
    let query: UInt64
    /// Offset into that query's result order.
    let offset: Int
}

/// One page of a pin's listings.
public struct PinLeavesPage: Sendable {
    /// At most `limit` listings, in the index's fixed order.
    public var leaves: [PinLeaf]
    /// The cursor of the next page; nil after the last.
    public var next: PinCursor?
}

/// A listing near a point.
public struct NearbyListing: Sendable, Hashable {
    /// The listing, at its displayed position.
    public var leaf: PinLeaf
    /// Distance from the query point to the displayed position, in metres, rounded to the
    /// nearest 100 m (so that repeated queries cannot triangulate a listing).
    public var distance: Double
}

/// One page of nearby listings, by rounded distance then listing id.
public struct NearbyPage: Sendable {
    /// At most `limit` listings, by rounded distance then listing id.
    public var listings: [NearbyListing]
    /// How many listings are within the radius (all pages).
    public var total: Int
    /// The cursor of the next page; nil after the last.
    public var next: PinCursor?
}
