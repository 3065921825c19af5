import Datasets
import Pins

/// A listing file as `PinListings`, and the way back from a listing id to the file's id text:
/// the adapter between Datasets' reader and Pins' index that every map-pin command and the
/// pins cell share.
///
/// Nothing else of the file is kept: the index holds every attribute a pin or leaf shows, and
/// the file's numeric columns become the listings' without a copy, so the listings and the
/// file are never both in memory.
public struct PinSource {
    /// The listings, until `takeListings()` hands them to the index.
    public private(set) var listings: PinListings
    /// Listings read.
    public let count: Int
    /// The file's id texts, and the rows sorted by listing id: only when some id text is not
    /// the decimal form of its 64-bit integer (then the id is a hash of its text); otherwise
    /// each id is its own text and nothing is kept.
    private let texts: [String]?
    private let rowsByID: [(id: Int64, row: Int32)]

    /// Reads the listing file at `path`.
    /// - Parameter locationColumn: the column whose value makes listings one location; nil:
    ///   `building_id` when the file has it, else the true coordinate.
    public static func read(path: String, locationColumn: String?) throws(DatasetError) -> PinSource {
        let file = try ListingFile.read(path: path, locationColumn: locationColumn ?? "building_id",
                                        required: locationColumn != nil)
        return PinSource(file: file)
    }

    /// - Parameter idsAreRows: use each listing's 0-based row as its id instead of the id
    ///   column (the benchmark's cells, which score labels by row).
    public init(file: consuming ListingFile, idsAreRows: Bool = false) {
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
        let categories = file.categories.map { $0?.code ?? ListingCategory.noneCode }
        file.categories = []
        listings = PinListings(ids: ids, longitudes: file.longitudes, latitudes: file.latitudes, locationKeys: keys,
                               categories: categories, areas: file.areas, deposits: file.deposits, monthlyRents: file.rents)
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
/// column and the privacy mask's key and offsets (the `pins`, `nearby` and `map --zoom`
/// options).
public struct PinSourceSettings: Sendable {
    /// The column whose value makes listings one location; nil: `building_id` when the file
    /// has it, else the true coordinate.
    public var locationColumn: String?
    /// The privacy mask's secret key; nil: true positions.
    public var key: PinsKey?
    /// The mask's smallest and largest displacement, metres.
    public var minOffset: Double
    public var maxOffset: Double
    /// The mask file that keeps every published location's displayed position (`--mask`);
    /// nil: none (each run draws from the key, the location and the offsets).
    public var maskFile: String?
    /// Accept a mask file made with another key or offset range (`--remask`).
    public var remask: Bool
    /// Receives warnings (what `remask` changed), for standard error.
    public var warn: @Sendable (String) -> Void = { _ in }

    public init(locationColumn: String? = nil, key: PinsKey?, minOffset: Double = 30, maxOffset: Double = 80,
                maskFile: String? = nil, remask: Bool = false) {
        self.locationColumn = locationColumn
        self.key = key
        self.minOffset = minOffset
        self.maxOffset = maxOffset
        self.maskFile = maskFile
        self.remask = remask
    }

    /// The privacy policy the settings say, without the mask file (see `policy(for:)`).
    public func policy() throws(PinError) -> PrivacyPolicy {
        guard let key else { return .disabled }
        return .displaced(try PrivacyMask(key: key, minDistance: minOffset, maxDistance: maxOffset))
    }

    /// Reads `input` into listings for a `PinIndex`.
    public func read(_ input: String) throws(DatasetError) -> PinSource {
        try PinSource.read(path: input, locationColumn: locationColumn)
    }
}
