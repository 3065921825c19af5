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

/// A listing file as `PinListings`, and the way back from a listing id to the file's row.
struct PinSource {
    let file: ListingFile
    let listings: PinListings
    /// File row of each listing id.
    let rowOfID: [Int64: Int32]

    init(file: ListingFile) {
        self.file = file
        var listings = PinListings(capacity: file.count)
        var rows = [Int64: Int32](minimumCapacity: file.count)
        for i in 0..<file.count {
            let id = Self.listingID(file.ids[i])
            rows[id] = Int32(i)
            listings.append(id: id, longitude: file.longitudes[i], latitude: file.latitudes[i],
                            locationKey: file.locations.map { LocationKey(string: $0[i]) },
                            category: file.categories[i].map(Self.code), area: Self.present(file.areas[i]),
                            deposit: Self.present(file.deposits[i]), monthlyRent: Self.present(file.rents[i]))
        }
        self.listings = listings
        rowOfID = rows
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

    private static func present(_ v: Double) -> Double? { v.isNaN ? nil : v }

    /// The file's id text of a listing id.
    func idText(_ id: Int64) -> String { rowOfID[id].map { file.ids[Int($0)] } ?? String(id) }
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
