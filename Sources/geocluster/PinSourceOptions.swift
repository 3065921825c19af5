import ArgumentParser
import Datasets
import Pins

/// What the map-pin commands (`pins`, `nearby`, `map --zoom`) share: where listings come
/// from (location column) and the privacy mask. There is no default seed: a run gives
/// `--privacy-seed` or says `--no-privacy` (issue 13: never a silent default in production).
struct PinSourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Secret seed of the privacy mask (an integer 0 to 2^64-1): every location is shown 30–80 m from its true position in a direction only this seed predicts. Keep it secret; the same seed gives the same displayed positions.", valueName: "seed"))
    var privacySeed: UInt64?

    @Flag(help: "Show true positions (no privacy mask): only for data that is public anyway.")
    var noPrivacy = false

    @Option(help: ArgumentHelp("Smallest displacement of the privacy mask, metres.", valueName: "metres"))
    var minOffset: Double = 30

    @Option(help: ArgumentHelp("Largest displacement of the privacy mask, metres.", valueName: "metres"))
    var maxOffset: Double = 80

    @Option(help: ArgumentHelp("Column (GeoJSON property) whose value makes listings one location: one building pin, one displacement. Default: building_id when the file has it, else the true coordinate.", valueName: "name"))
    var locationColumn: String?

    func validate() throws {
        guard minOffset.isFinite, minOffset >= 0 else { throw ValidationError("--min-offset must be a distance >= 0 m") }
        guard maxOffset.isFinite, maxOffset > minOffset else {
            throw ValidationError("--max-offset (\(maxOffset) m) must be above --min-offset (\(minOffset) m)")
        }
        if noPrivacy && privacySeed != nil {
            throw ValidationError("--privacy-seed and --no-privacy contradict each other; give one")
        }
    }

    /// Checks that a privacy choice was made (called by the commands that build an index,
    /// from their `validate()`, so a missing choice is a usage mistake).
    func requirePrivacyChoice() throws {
        switch (privacySeed, noPrivacy) {
        case (nil, false):
            throw ValidationError("give --privacy-seed S (a secret integer) to mask true positions, or --no-privacy to show them")
        case (.some, true):
            throw ValidationError("--privacy-seed and --no-privacy contradict each other; give one")
        default: break
        }
    }

    /// The privacy policy the options say.
    func policy() throws(PinError) -> PrivacyPolicy {
        guard let seed = privacySeed else { return .disabled }
        return .displaced(try PrivacyMask(seed: seed, minDistance: minOffset, maxDistance: maxOffset))
    }

    /// Reads `input` into listings for a `PinIndex`.
    func read(_ input: String) throws(DatasetError) -> PinSource {
        let file = try ListingFile.read(path: input, locationColumn: locationColumn ?? "building_id",
                                        required: locationColumn != nil)
        return PinSource(file: file)
    }
}

/// A listing file as `PinListings`, and the way back from a listing id to the file's id text.
///
/// Nothing else of the file is kept: the index holds every attribute a pin or leaf shows, and
/// the file's numeric columns become the listings' without a copy. At 1M listings that is what
/// keeps `geocluster pins` under 300 MB (README, "Map pins → Speed").
struct PinSource {
    /// The listings, until `takeListings()` hands them to the index.
    private(set) var listings: PinListings
    /// Listings read.
    let count: Int
    /// The file's id texts, and the rows sorted by listing id: only when some id text is not
    /// the decimal form of its 64-bit integer (then the id is a hash of its text); otherwise
    /// each id is its own text and nothing is kept.
    private let texts: [String]?
    private let rowsByID: [(id: Int64, row: Int32)]

    /// - Parameter idsAreRows: use each listing's 0-based row as its id instead of the id
    ///   column (the benchmark's cells, which score labels by row).
    init(file: consuming ListingFile, idsAreRows: Bool = false) {
        count = file.count
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
        let categories = file.categories.map { $0.map(Self.code) ?? PinCategory.none }
        file.categories = []
        listings = PinListings(ids: ids, longitudes: file.longitudes, latitudes: file.latitudes, locationKeys: keys,
                               categories: categories, areas: file.areas, deposits: file.deposits, monthlyRents: file.rents)
    }

    /// The listings, handed over (this source keeps none), so that the index build can free
    /// each column once used.
    mutating func takeListings() -> PinListings {
        defer { listings = PinListings() }
        return listings
    }

    /// A listing's 64-bit id: the id text as an integer when it is one, else its FNV-1a hash
    /// (so the index's order, and so the output, depends on the ids, not on the row order).
    static func listingID(_ text: String) -> Int64 {
        if let v = Int64(text) { return v }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return Int64(bitPattern: h)
    }

    /// The Pins category code of a category: its position in `ListingCategory.allCases`.
    static func code(_ c: ListingCategory) -> UInt8 { UInt8(ListingCategory.allCases.firstIndex(of: c)!) }

    /// The category of a Pins code.
    static func category(_ code: UInt8) -> ListingCategory? {
        Int(code) < ListingCategory.allCases.count ? ListingCategory.allCases[Int(code)] : nil
    }

    /// The file's id text of a listing id.
    func idText(_ id: Int64) -> String {
        guard let texts else { return String(id) }
        var lo = 0, hi = rowsByID.count
        while lo < hi { let m = (lo + hi) / 2; if rowsByID[m].id < id { lo = m + 1 } else { hi = m } }
        return lo < rowsByID.count && rowsByID[lo].id == id ? texts[Int(rowsByID[lo].row)] : String(id)
    }
}

extension AttributeFilterOptions {
    /// The filter as a query-time `PinFilter` (nil when no option was given): the same
    /// conditions, ends included; a listing without the attribute fails it.
    var pinFilter: PinFilter? {
        guard isActive else { return nil }
        func range(_ r: ValueRange?) -> PinValueRange? { r.map { PinValueRange(lower: $0.lower, upper: $0.upper) } }
        return PinFilter(categories: category.map { PinCategorySet($0.map(PinSource.code)) }, area: range(area),
                         deposit: range(deposit), monthlyRent: range(rent))
    }
}

/// Turns a Pins error into the command's error (exit 1), like `reportingErrors` does for the
/// other libraries' errors. Pins' messages never repeat a true coordinate.
func reportingPinErrors<R>(input: String, _ body: () throws -> R) throws -> R {
    try reportingErrors(input: input) {
        do {
            return try body()
        } catch let e as PinError {
            switch e {
            case .invalidCoordinate, .duplicateListingID: throw fail("\(input): \(e)")
            default: throw fail(e)
            }
        }
    }
}
