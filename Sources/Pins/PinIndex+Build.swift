// Building a PinIndex: mask, hierarchy, cut per zoom, order (see PinIndex.swift's header).
// Each step has a file of its own: PinIndex+Mask.swift, PinIndex+Hierarchy.swift, Cut.swift
// (with Cut+Overlaps.swift and Cut+Sorting.swift), PinIndex+Order.swift.

import ClusterCore

extension PinIndex {
    /// Builds the index in one call.
    /// - Throws: `PinError.invalidParameter` for an invalid option; `.invalidCoordinate`
    ///   for a non-finite coordinate, a longitude outside ±180° or a latitude beyond ±85°
    ///   (Web Mercator); `.invalidParameter` for a negative or non-finite attribute or a
    ///   category code above 15; `.duplicateListingID`. Listings that disagree with their
    ///   location are not an error: each is left out on its own (`setAside`).
    /// - Parameters:
    ///   - listings: consumed: each column is freed as soon as the build has used it (when
    ///     the caller holds no other copy), so that the listings and the finished index are
    ///     not in memory at once.
    ///   - options: the privacy policy and the drawing options (`PinOptions`).
    /// - Complexity: O(n log n) expected for n listings: dominated by the MST over the
    ///   distinct locations and by 23 passes of the cut over the current pins.
    public init(listings: consuming PinListings, options: PinOptions) throws(PinError) {
        try options.validate()
        try Self.validate(listings)
        var keys = BuildKeys(options.privacy)
        // 0. Place: conflicting and held-back listings out, every location's displayed position decided.
        let setAside = Self.place(&listings, keys: &keys, tolerance: options.locationTolerance)
        // 1. Mask: locations in canonical order at their displayed positions.
        var locations = Self.maskedLocations(of: &listings, keys: keys, tolerance: options.locationTolerance,
                                                 threads: options.threads)
        // 1b. Frame: the Mercator line cut open in the widest empty stretch of longitude.
        let seam = Self.openAtSeam(&locations.x)
        // 2. Hierarchy: the MST over the displayed positions.
        let mst = try Self.hierarchy(xs: locations.x, ys: locations.y, options: options)
        // 3. Cut, zoom by zoom, into the forest of nodes.
        let cut = Self.cut(locations, mst: mst, options: options)
        // 4. Order: the forest's depth-first order, node ids, the listings' columns in that order.
        var ranges = Self.nodeRanges(of: cut, locations: locations)
        var rows = Self.rows(ranges: &ranges, locations: &locations)
        let ids = Self.nodeIDs(ranges: &ranges, hasher: keys.hasher)
        let columns = Self.columns(of: &listings, rows: &rows, ranges: ranges, cut: cut, threads: options.threads)
        self.init(options: options, seam: seam, locations: locations, cut: cut, ranges: ranges, rows: rows, ids: ids, columns: columns)
        self.setAside = setAside
    }

    /// Checks every listing's coordinates, attributes and category, and that no id repeats;
    /// returns whether the ids ascend in input order (as a file's usually do).
    @discardableResult
    static func validate(_ listings: PinListings) throws(PinError) -> Bool {
        let n = listings.count
        if let rows = listings.properties.rows, rows != n {
            throw .invalidParameter(name: "properties", value: "\(rows) values a column",
                                    requirement: "must have one value per listing (\(n))")
        }
        for i in 0..<n {
            let lon = listings.longitudes[i], lat = listings.latitudes[i]
            guard lon.isFinite, lat.isFinite else { throw .invalidCoordinate(row: i, reason: "a coordinate is NaN or infinite") }
            guard abs(lon) <= 180 else { throw .invalidCoordinate(row: i, reason: "the longitude is outside ±180°") }
            guard abs(lat) <= 85 else { throw .invalidCoordinate(row: i, reason: "the latitude is beyond ±85° (Web Mercator's limit)") }
            func check(_ name: String, _ v: Double) throws(PinError) {
                guard v.isNaN || (v.isFinite && v >= 0) else {
                    throw .invalidParameter(name: "\(name) of listing \(listings.ids[i])", value: "\(v)", requirement: "must be a finite number >= 0 or absent")
                }
            }
            try check("area", listings.areas[i]); try check("deposit", listings.deposits[i]); try check("monthlyRent", listings.rents[i])
            let c = listings.categories[i]
            guard c == ListingCategory.noneCode || Int(c) < ListingCategory.codeCount else {
                throw .invalidParameter(name: "category of listing \(listings.ids[i])", value: "\(c)", requirement: "must be a code 0...15")
            }
        }
        // Duplicate ids: none if they ascend, else sorted and compared.
        let ascending = listings.ids.withUnsafeBufferPointer { ids in
            var k = 1
            while k < ids.count && ids[k - 1] < ids[k] { k += 1 }
            return k >= ids.count
        }
        if !ascending {
            var sortedIDs = listings.ids
            sortedIDs.sort()
            for i in 1..<max(sortedIDs.count, 1) where sortedIDs[i] == sortedIDs[i - 1] { throw .duplicateListingID(sortedIDs[i]) }
        }
        return ascending
    }

    /// Step 1b, frame: the seam (`PinIndex.seam`) of the displayed positions' x, and every x
    /// west of it moved one turn east, so that locations on both sides of the antimeridian are
    /// neighbours in the MST, the cut and the boxes. 0 (nothing moves) unless the data spans
    /// the antimeridian with a wider empty stretch elsewhere.
    /// - Complexity: O(L) but for data spread evenly all round the world (see `CircularGap`).
    static func openAtSeam(_ xs: inout [Double]) -> Double {
        let seam = LongitudeWindow.start(of: xs, from: 0, period: 1)
        if seam > 0 {
            for l in xs.indices where xs[l] < seam { xs[l] += 1 }
        }
        return seam
    }

    /// The index from the steps' results.
    private init(options: PinOptions, seam: Double, locations: MaskedLocations, cut: Cut, ranges: NodeRanges, rows: Rows,
                 ids: (ids: [UInt64], table: [Int32]), columns: Columns) {
        self.options = options
        self.seam = seam
        locLon = locations.longitude; locLat = locations.latitude; locX = locations.x; locY = locations.y
        parent = cut.parent; firstChild = cut.firstChild; nextSibling = cut.nextSibling
        low = ranges.low; high = cut.high
        start = ranges.start; end = ranges.end
        cx = cut.nodeCX; cy = cut.nodeCY
        minX = cut.nodeMinX; maxX = cut.nodeMaxX; minY = cut.nodeMinY; maxY = cut.nodeMaxY
        nodeID = ids.ids
        roots = cut.roots
        idTable = ids.table
        runEnd = rows.runEnd; runLocation = rows.runLocation; runX = rows.runX; runY = rows.runY
        runCategories = columns.runCategories
        rowID = columns.id
        rowLocation = rows.location
        rowCategory = columns.category
        rowArea = columns.area
        rowDeposit = columns.deposit
        rowRent = columns.rent
        rowProperties = columns.properties
        propertySummaries = PropertySummaries(columns.properties)
        depositQuantiles = columns.depositQuantiles
        rentQuantiles = columns.rentQuantiles
        nodeMedians = Self.nodeMedians(start: ranges.start, end: ranges.end, columns.depositQuantiles, columns.rentQuantiles)
        categoryCodes = columns.categoryCodes
        categoryCounts = columns.categoryCounts
    }

    /// Every node's median deposit and rent (NaN for none), in node order.
    /// - Complexity: O(nodes · log σ).
    private static func nodeMedians(start: [Int32], end: [Int32], _ deposit: RangeQuantiles, _ rent: RangeQuantiles) -> [Double] {
        var out = [Double](repeating: .nan, count: 2 * start.count)
        for v in start.indices {
            let rows = Int(start[v])..<Int(end[v])
            out[2 * v] = deposit.median(rows) ?? .nan
            out[2 * v + 1] = rent.median(rows) ?? .nan
        }
        return out
    }
}
