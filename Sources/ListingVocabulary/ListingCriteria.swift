// What a listing is and which listings a query or a file reader keeps: the category, value
// ranges, a longitude/latitude box and the attribute filter. Defined here, in the vocabulary
// every module shares (pure Swift), so that the index, the file readers and the maps use one
// type for each.

/// The kinds of listing the generator writes and the `--category` filter accepts, in the
/// `category` column's spelling.
public enum ListingCategory: String, CaseIterable, Sendable, Comparable {
    /// A unit in an apartment complex (아파트).
    case apartment
    /// A studio in an officetel block (오피스텔), mostly along main roads.
    case officetel
    /// A unit in a low-rise multi-family house (빌라, 다세대).
    case villa
    /// A studio (원룸).
    case oneRoom = "one-room"
    /// A two-room flat (투룸).
    case twoRoom = "two-room"
    /// A shop or office space (상가).
    case store

    /// How many codes a `PinListings` category may take (0..<codeCount); the named
    /// categories use the first few, a caller may use the rest for its own.
    public static let codeCount = 16
    /// The stored code of a listing without a category.
    public static let noneCode: UInt8 = 0xFF

    /// The category's code in `PinListings` and `PinLeaf`: its position in `allCases`.
    @inlinable public var code: UInt8 {
        switch self {
        case .apartment: return 0
        case .officetel: return 1
        case .villa: return 2
        case .oneRoom: return 3
        case .twoRoom: return 4
        case .store: return 5
        }
    }

    /// The category of a code, or nil (`noneCode`, or a code no category has).
    public init?(code: UInt8) {
        guard Int(code) < Self.allCases.count else { return nil }
        self = Self.allCases[Int(code)]
    }

    /// Orders categories by their codes.
    public static func < (a: Self, b: Self) -> Bool { a.code < b.code }

    /// The names, comma-separated, for messages and help.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

/// A set of category codes (0..<16) as a bit mask.
public struct CategorySet: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Bit `c` set: code `c` is in the set.
    public var mask: UInt16
    /// The set whose bit `c` of `mask` stands for code `c`.
    public init(mask: UInt16) { self.mask = mask }
    /// The set of these codes; codes of 16 and above are ignored.
    public init(_ codes: some Sequence<UInt8>) {
        mask = 0
        for c in codes where Int(c) < ListingCategory.codeCount { mask |= 1 << UInt16(c) }
    }
    /// The set of these categories' codes.
    public init(_ categories: some Sequence<ListingCategory>) { self.init(categories.map(\.code)) }
    /// The set of the listed codes: `[0, 1]`.
    public init(arrayLiteral codes: UInt8...) { self.init(codes) }
    /// Whether code `code` is in the set (never for codes of 16 and above).
    @inlinable @inline(__always) public func contains(_ code: UInt8) -> Bool {
        Int(code) < ListingCategory.codeCount && mask & (1 << UInt16(code)) != 0
    }
    /// Whether `category` is in the set.
    @inlinable @inline(__always) public func contains(_ category: ListingCategory) -> Bool { contains(category.code) }
    /// Adds `category` to the set.
    public mutating func insert(_ category: ListingCategory) { mask |= 1 << UInt16(category.code) }
    /// The named categories in the set, in `allCases` order.
    public var categories: [ListingCategory] { ListingCategory.allCases.filter { contains($0) } }
}

/// A closed range with optional ends (both included), written `MIN..MAX`, `..MAX` or `MIN..`
/// (Datasets parses that text).
public struct ValueRange: Sendable, Hashable, CustomStringConvertible {
    /// Smallest value kept (nil: no lower bound).
    public var lower: Double?
    /// Largest value kept (nil: no upper bound).
    public var upper: Double?
    /// The values from `lower` to `upper`, both included; a nil end is open.
    public init(lower: Double? = nil, upper: Double? = nil) { self.lower = lower; self.upper = upper }
    /// Whether `value` lies in the range; NaN (a missing value) never does.
    @inlinable @inline(__always) public func contains(_ value: Double) -> Bool {
        if value.isNaN { return false }
        if let l = lower, value < l { return false }
        if let u = upper, value > u { return false }
        return true
    }

    public var description: String {
        (lower.map { "\($0)" } ?? "") + ".." + (upper.map { "\($0)" } ?? "")
    }
}

/// Which listings a query or a reader keeps by their attributes: every condition given must
/// hold; an unset one keeps all. The semantics of the CLI's `--category`, `--area`,
/// `--deposit` and `--rent` (ends included). In a `PinIndex` query a listing lacking the
/// attribute fails its condition; the file readers reject such rows instead.
public struct AttributeFilter: Sendable, Hashable {
    /// Category codes kept (nil: all, including listings without a category).
    public var categories: CategorySet?
    /// Floor area in m².
    public var area: ValueRange?
    /// Deposit, in the unit the listings were given in (the CLI's: 10,000 KRW).
    public var deposit: ValueRange?
    /// Monthly rent, in the unit the listings were given in (the CLI's: 10,000 KRW, 0 for jeonse).
    public var monthlyRent: ValueRange?
    /// Conditions on the caller's own columns (`ListingProperties`), all of which must hold.
    public var properties: [PropertyCondition] = []

    /// A filter keeping the listings that meet every condition given.
    /// - Parameters:
    ///   - categories: the category codes kept; nil keeps every category.
    ///   - area: the floor areas kept, in m²; nil keeps all.
    ///   - deposit: the deposits kept; nil keeps all.
    ///   - monthlyRent: the monthly rents kept; nil keeps all.
    ///   - properties: conditions on the caller's own columns; none keeps all.
    public init(categories: CategorySet? = nil, area: ValueRange? = nil,
                deposit: ValueRange? = nil, monthlyRent: ValueRange? = nil, properties: [PropertyCondition] = []) {
        self.categories = categories
        self.area = area
        self.deposit = deposit
        self.monthlyRent = monthlyRent
        self.properties = properties
    }

    /// Whether no condition is set.
    public var isEmpty: Bool { categories == nil && area == nil && deposit == nil && monthlyRent == nil && properties.isEmpty }

    /// Whether the numeric attributes pass (an unset range passes everything; NaN, a missing
    /// value, fails a range that is set). `package`: the readers' and the index's shared test.
    @inlinable @inline(__always)
    package func numbersPass(area a: Double, deposit d: Double, monthlyRent r: Double) -> Bool {
        (area?.contains(a) ?? true) && (deposit?.contains(d) ?? true) && (monthlyRent?.contains(r) ?? true)
    }
}

/// A longitude/latitude box in degrees, edges included. `minLongitude > maxLongitude` means
/// the box crosses the antimeridian (as in supercluster's `getClusters`); the CLI's `--bbox`
/// (parsed by Datasets) never does.
public struct BoundingBox: Sendable, Hashable {
    /// The western edge, degrees (−180…180).
    public var minLongitude: Double
    /// The southern edge, degrees (−90…90).
    public var minLatitude: Double
    /// The eastern edge, degrees (−180…180); less than `minLongitude` across the antimeridian.
    public var maxLongitude: Double
    /// The northern edge, degrees (−90…90).
    public var maxLatitude: Double

    /// A box from its edges in degrees (checked by `validate()`, or by the query it is given to).
    public init(minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        self.minLongitude = minLongitude
        self.minLatitude = minLatitude
        self.maxLongitude = maxLongitude
        self.maxLatitude = maxLatitude
    }

    /// The whole world.
    public static let world = BoundingBox(minLongitude: -180, minLatitude: -90, maxLongitude: 180, maxLatitude: 90)

    /// Checks that the edges are finite, within ±180° / ±90°, and that minLatitude <= maxLatitude.
    public func validate() throws(InvalidValue) {
        for (name, v, limit) in [("minLongitude", minLongitude, 180.0), ("maxLongitude", maxLongitude, 180),
                                 ("minLatitude", minLatitude, 90), ("maxLatitude", maxLatitude, 90)] {
            guard v.isFinite, abs(v) <= limit else {
                throw InvalidValue(name: name, value: "\(v)", reason: "must be a finite number within ±\(Int(limit))°")
            }
        }
        guard minLatitude <= maxLatitude else {
            throw InvalidValue(name: "minLatitude", value: "\(minLatitude)",
                               reason: "is above maxLatitude \(maxLatitude); swap them")
        }
    }

    /// Whether (longitude, latitude) is inside or on the edge (across the antimeridian too).
    @inlinable @inline(__always)
    public func contains(longitude: Double, latitude: Double) -> Bool {
        guard latitude >= minLatitude && latitude <= maxLatitude else { return false }
        if minLongitude <= maxLongitude { return longitude >= minLongitude && longitude <= maxLongitude }
        return longitude >= minLongitude || longitude <= maxLongitude
    }
}
