// Queries: pins in a viewport (filtered or not), a pin's children, leaves and expansion
// zoom, listings nearby. None rebuilds anything; none reads a true position (there are none).

import ClusterCore

extension PinIndex {
    /// The zoom a query uses: `floor(zoom)`, like supercluster; 0 ≤ zoom < 23.
    static func zoomLevel(_ zoom: Double) throws(PinError) -> Int {
        guard zoom.isFinite, zoom >= 0, zoom < Double(PinOptions.maxZoom + 1) else {
            throw .invalidParameter(name: "zoom", value: "\(zoom)", requirement: "must be within 0...\(PinOptions.maxZoom) (fractions floor)")
        }
        return Int(zoom.rounded(.down))
    }

    /// The Mercator rectangles (x0, x1, y0, y1) of a box: two when it crosses the antimeridian.
    static func rects(_ bbox: BoundingBox) -> [(Double, Double, Double, Double)] {
        let y0 = WebMercator.y(latitude: bbox.maxLatitude), y1 = WebMercator.y(latitude: bbox.minLatitude)
        let x0 = WebMercator.x(longitude: bbox.minLongitude), x1 = WebMercator.x(longitude: bbox.maxLongitude)
        if bbox.minLongitude <= bbox.maxLongitude { return [(x0, x1, y0, y1)] }
        return [(x0, 1, y0, y1), (0, x1, y0, y1)]
    }

    /// The rectangles of a box in this index's frame (x moved one turn east below `seam`, see
    /// `PinIndex.seam`): each Mercator rectangle's part east of the seam as it is, its part
    /// west of the seam moved by +1. The frame's x = 1 is longitude 180° (not −180°), so a
    /// moved part that starts at −180° starts just after it.
    func frameRects(_ bbox: BoundingBox) -> [(Double, Double, Double, Double)] {
        let plain = Self.rects(bbox)
        if seam == 0 { return plain }
        var out: [(Double, Double, Double, Double)] = []
        for r in plain {
            if r.1 >= seam { out.append((max(r.0, seam), r.1, r.2, r.3)) }
            if r.0 < seam { out.append((r.0 == 0 ? Double(1).nextUp : r.0 + 1, min(r.1, seam) + 1, r.2, r.3)) }
        }
        return out
    }

    /// The longitude in degrees (−180…180) of an x in this index's frame.
    @inline(__always)
    func longitude(x: Double) -> Double { LongitudeWindow.normalized(WebMercator.longitude(x: x)) }

    /// The box in degrees of a frame rectangle, widened by `boxMargin` on every side: the
    /// positions went to Mercator and come back, and that round trip (a turn added below the
    /// seam makes it coarser) may move an edge by a few 1e-14°, which must not leave the
    /// listing on that edge outside its pin's box.
    func box(x0: Double, x1: Double, y0: Double, y1: Double) -> BoundingBox {
        let m = Self.boxMargin
        return BoundingBox(minLongitude: LongitudeWindow.normalized(longitude(x: x0) - m),
                           minLatitude: max(-90, WebMercator.latitude(y: y1) - m),
                           maxLongitude: LongitudeWindow.normalized(longitude(x: x1) + m),
                           maxLatitude: min(90, WebMercator.latitude(y: y0) + m))
    }

    /// Degrees a cluster pin's box is widened by (about 0.1 µm on the ground).
    static let boxMargin = 1e-12

    /// The node of a pin id.
    func node(of id: PinID) throws(PinError) -> Int {
        let mask = idTable.count - 1
        var slot = Int(id.rawValue & UInt64(mask))
        while idTable[slot] >= 0 {
            let v = Int(idTable[slot])
            if nodeID[v] == id.rawValue { return v }
            slot = (slot + 1) & mask
        }
        throw .unknownPin(id)
    }

    /// The pins shown at `zoom` whose centroid lies in `bbox` (all pins when nil), over the
    /// listings passing `filter` (all when nil or empty), in a fixed order (depth first).
    ///
    /// Unfiltered, every aggregate is precomputed or O(log n) (medians from a wavelet matrix),
    /// so the cost is the nodes visited: O(pins returned + their ancestors' siblings in view).
    /// Filtered, the pins are the same groups, restricted to the passing listings (pins with
    /// none are left out): each candidate pin's rows are scanned once (O(rows of the pins in
    /// view)), its centroid, box, counts and medians recomputed over the passing rows, and the
    /// pin reported if that centroid is in the box. Filtered discs may overlap (their centres
    /// move); the cut itself is not redone.
    /// - Parameters:
    ///   - zoom: 0 ≤ zoom < 23, floored (14.7 shows zoom 14's pins).
    ///   - bbox: longitudes and latitudes in degrees; `minLongitude > maxLongitude` crosses
    ///     the antimeridian; nil: the whole world.
    ///   - filter: the listings to count; nil: all.
    /// - Throws: `.invalidParameter` for a zoom out of range or an invalid box.
    /// - Complexity: see above; allocates the result (and, filtered, one scratch buffer).
    public func pins(zoom: Double, bbox: BoundingBox? = nil, filter: AttributeFilter? = nil) throws(PinError) -> [Pin] {
        var out: [Pin] = []
        try pins(zoom: zoom, bbox: bbox, filter: filter, into: &out)
        return out
    }

    /// As `pins(zoom:bbox:filter:)`, into a caller-owned array (emptied first, capacity kept),
    /// so that repeated queries allocate nothing once it is large enough.
    public func pins(zoom: Double, bbox: BoundingBox?, filter: AttributeFilter?, into out: inout [Pin]) throws(PinError) {
        let z = try Self.zoomLevel(zoom)
        do { try bbox?.validate() } catch { throw PinError(error) }
        out.removeAll(keepingCapacity: true)
        let filter = try compiled(filter)
        var scratch = FilterScratch()
        for rect in frameRects(bbox ?? .world) {
            var stack: [Int32] = roots.reversed()
            while let v32 = stack.popLast() {
                let v = Int(v32)
                if maxX[v] < rect.0 || minX[v] > rect.1 || maxY[v] < rect.2 || minY[v] > rect.3 { continue }
                if Int(high[v]) >= z {
                    // Shown at z (nodes are opened only down to the zoom that shows them).
                    if let filter {
                        if let pin = filteredPin(v, filter: filter, scratch: &scratch),
                           Self.inside(scratch.lastX, scratch.lastY, rect) {
                            out.append(pin)
                        }
                    } else if Self.inside(cx[v], cy[v], rect) {
                        out.append(pin(v))
                    }
                    continue
                }
                var c = firstChild[v]
                var mark = stack.count
                while c >= 0 { stack.append(c); c = nextSibling[Int(c)] }
                // Children in their stored order.
                var hi = stack.count - 1
                while mark < hi { stack.swapAt(mark, hi); mark += 1; hi -= 1 }
            }
        }
    }

    @inline(__always)
    static func inside(_ x: Double, _ y: Double, _ r: (Double, Double, Double, Double)) -> Bool {
        x >= r.0 && x <= r.1 && y >= r.2 && y <= r.3
    }

    /// The unfiltered pin of node `v`.
    func pin(_ v: Int) -> Pin {
        let s = Int(start[v]), e = Int(end[v])
        let n = e - s
        let isLocation = v < locationCount
        var categories = PinCategoryCounts()
        for (k, code) in categoryCodes.enumerated() {
            categories[code] = Int(categoryCounts[v * categoryCodes.count + k])
        }
        let lowZoom = Int(low[v]), highZoom = min(Int(high[v]), PinOptions.maxZoom)
        var pin = Pin(
            id: PinID(rawValue: nodeID[v]),
            kind: isLocation ? (n == 1 ? .listing : .building) : .cluster,
            count: n,
            longitude: isLocation ? locLon[v] : longitude(x: cx[v]),
            latitude: isLocation ? locLat[v] : WebMercator.latitude(y: cy[v]),
            bbox: isLocation
                ? BoundingBox(minLongitude: locLon[v], minLatitude: locLat[v], maxLongitude: locLon[v], maxLatitude: locLat[v])
                : box(x0: minX[v], x1: maxX[v], y0: minY[v], y1: maxY[v]),
            expansionZoom: isLocation ? nil : Int(high[v]) + 1,
            zooms: lowZoom...max(lowZoom, highZoom),
            diameter: options.diameter(count: n),
            listingID: n == 1 ? rowID[s] : nil,
            medianDeposit: nodeMedians[2 * v].isNaN ? nil : nodeMedians[2 * v],
            medianMonthlyRent: nodeMedians[2 * v + 1].isNaN ? nil : nodeMedians[2 * v + 1],
            categoryCounts: categories)
        if !propertySummaries.columns.isEmpty { pin.properties = propertySummaries.summaries(s..<e) }
        return pin
    }

    /// Whether row `r` passes `f`.
    @inline(__always)
    func passes(_ r: Int, _ f: CompiledFilter) -> Bool {
        f.passes(category: rowCategory[r], area: rowArea[r], deposit: rowDeposit[r], rent: rowRent[r]) && f.propertiesPass(r)
    }

    /// `filter` compiled against this index's columns; nil when it sets no condition.
    /// - Throws: `.invalidParameter` for a property condition the listings cannot meet by
    ///   construction: an unknown column, or a test of the wrong kind for it.
    func compiled(_ filter: AttributeFilter?) throws(PinError) -> CompiledFilter? {
        guard let filter, !filter.isEmpty else { return nil }
        return CompiledFilter(filter, conditions: try CompiledConditions(filter.properties, properties: rowProperties),
                              properties: rowProperties)
    }

    /// A filter as the row scan tests it: open ends as infinities, an unset condition as a
    /// flag, so the test of a row is a few compares with no optionals. A missing value (NaN)
    /// fails every compare, hence every set condition, as `ValueRange.contains` says.
    struct CompiledFilter {
        let categories: UInt16
        let useCategories, useArea, useDeposit, useRent: Bool
        let area: (Double, Double), deposit: (Double, Double), rent: (Double, Double)
        /// The tests on the caller's own columns, and those columns in row order.
        let conditions: CompiledConditions
        let properties: ListingProperties

        init(_ f: AttributeFilter, conditions: CompiledConditions, properties: ListingProperties) {
            self.conditions = conditions
            self.properties = properties
            func bounds(_ r: ValueRange?) -> (Double, Double) { (r?.lower ?? -.infinity, r?.upper ?? .infinity) }
            categories = f.categories?.mask ?? 0
            useCategories = f.categories != nil
            useArea = f.area != nil; useDeposit = f.deposit != nil; useRent = f.monthlyRent != nil
            area = bounds(f.area); deposit = bounds(f.deposit); rent = bounds(f.monthlyRent)
        }

        @inline(__always)
        func passes(category c: UInt8, area a: Double, deposit d: Double, rent m: Double) -> Bool {
            if useCategories && (c >= 16 || categories & (1 << UInt16(c & 15)) == 0) { return false }
            if useArea && !(a >= area.0 && a <= area.1) { return false }
            if useDeposit && !(d >= deposit.0 && d <= deposit.1) { return false }
            if useRent && !(m >= rent.0 && m <= rent.1) { return false }
            return true
        }

        /// Whether row `r` meets the property conditions.
        @inline(__always)
        func propertiesPass(_ r: Int) -> Bool { conditions.isEmpty || conditions.passes(r, properties) }
    }

    /// Scratch space of filtered queries, reused across pins.
    struct FilterScratch {
        var deposits: [Double] = []
        var rents: [Double] = []
        /// Counts per rank of deposit and rent, for pins of many rows.
        var depositCounts: [UInt32] = []
        var rentCounts: [UInt32] = []
        /// The Mercator y of the last filtered pin's centroid.
        var lastX = 0.0, lastY = 0.0

        /// Makes room for a pin of `rows` rows: zeroed counts per rank when `counting` (for
        /// columns of `depositValues` and `rentValues` distinct values), else value buffers of
        /// at least `rows`. Buffers are only ever grown, so that a query allocates them once.
        @inline(__always)
        mutating func prepare(rows: Int, counting: Bool, depositValues: Int, rentValues: Int) {
            if counting {
                if depositCounts.isEmpty {
                    depositCounts = [UInt32](repeating: 0, count: depositValues + 1)
                    rentCounts = [UInt32](repeating: 0, count: rentValues + 1)
                } else {
                    for k in depositCounts.indices { depositCounts[k] = 0 }
                    for k in rentCounts.indices { rentCounts[k] = 0 }
                }
            } else if deposits.count < rows {
                deposits = [Double](repeating: 0, count: rows)
                rents = [Double](repeating: 0, count: rows)
            }
        }
    }

    /// The pin of node `v` over the rows passing `filter`, or nil if none does.
    ///
    /// One pass over the node's rows, location by location (a location's rows are
    /// contiguous): the rows that pass add their category and their deposit and rent; each
    /// location with passing rows adds its position once, weighted by their number. The
    /// medians come from the passing values by quickselect, or, for a node of more rows than
    /// 8 × the distinct values, from counts per rank (no second pass over the values, which
    /// nearly halves a whole-city filtered query: docs/performance.md).
    func filteredPin(_ v: Int, filter: CompiledFilter, scratch: inout FilterScratch) -> Pin? {
        let s = Int(start[v]), e = Int(end[v])
        let counting = e - s > 8 * max(depositQuantiles.values.count, rentQuantiles.values.count)
        scratch.prepare(rows: e - s, counting: counting, depositValues: depositQuantiles.values.count,
                        rentValues: rentQuantiles.values.count)
        var n = 0, nd = 0, nr = 0
        var sx = 0.0, sy = 0.0
        var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
        var firstLoc = -1, locations = 0, firstID: Int64 = 0
        var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        scratch.deposits.withUnsafeMutableBufferPointer { deposits in
        scratch.rents.withUnsafeMutableBufferPointer { rents in
        scratch.depositCounts.withUnsafeMutableBufferPointer { depositCounts in
        scratch.rentCounts.withUnsafeMutableBufferPointer { rentCounts in
        depositQuantiles.ranks.withUnsafeBufferPointer { depositRank in
        rentQuantiles.ranks.withUnsafeBufferPointer { rentRank in
                withUnsafeMutableBytes(of: &counts) { countBytes in
                    let perCategory = countBytes.bindMemory(to: Int.self)
                    rowCategory.withUnsafeBufferPointer { cat in
                    rowArea.withUnsafeBufferPointer { area in
                    rowDeposit.withUnsafeBufferPointer { dep in
                    rowRent.withUnsafeBufferPointer { rent in
                        // The run holding row s: the first whose end is above s.
                        var lo = 0, hi = runEnd.count
                        while lo < hi { let m = (lo + hi) / 2; if Int(runEnd[m]) <= s { lo = m + 1 } else { hi = m } }
                        var k = lo, r = s
                        while r < e {
                            let le = Int(runEnd[k])
                            if filter.useCategories && runCategories[k] & UInt32(filter.categories) == 0 { r = le; k += 1; continue }
                            var c = 0
                            for q in r..<le where filter.passes(category: cat[q], area: area[q], deposit: dep[q], rent: rent[q])
                                && filter.propertiesPass(q) {
                                if c == 0 && n == 0 { firstID = rowID[q] }
                                c += 1
                                let g = cat[q]
                                if g < 16 { perCategory[Int(g)] += 1 }
                                let d = dep[q], m = rent[q]
                                if counting {
                                    depositCounts[Int(depositRank[q])] += 1
                                    rentCounts[Int(rentRank[q])] += 1
                                    if !d.isNaN { nd += 1 }
                                    if !m.isNaN { nr += 1 }
                                } else {
                                    if !d.isNaN { deposits[nd] = d; nd += 1 }
                                    if !m.isNaN { rents[nr] = m; nr += 1 }
                                }
                            }
                            if c > 0 {
                                if n == 0 { firstLoc = Int(runLocation[k]) }
                                n += c
                                locations += 1
                                let x = runX[k], y = runY[k]
                                sx += x * Double(c); sy += y * Double(c)
                                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                            }
                            r = le
                            k += 1
                        }
                    }
                    }
                    }
                    }
                }
        }
        }
        }
        }
        }
        }
        if n == 0 { return nil }
        var categories = PinCategoryCounts()
        withUnsafeBytes(of: counts) { b in
            for (k, c) in b.bindMemory(to: Int.self).enumerated() where c > 0 { categories[UInt8(k)] = c }
        }
        let medianDeposit = counting
            ? scratch.depositCounts.withUnsafeBufferPointer { depositQuantiles.median(counts: $0, present: nd) }
            : scratch.deposits.withUnsafeMutableBufferPointer { medianInPlace($0, count: nd) }
        let medianRent = counting
            ? scratch.rentCounts.withUnsafeBufferPointer { rentQuantiles.median(counts: $0, present: nr) }
            : scratch.rents.withUnsafeMutableBufferPointer { medianInPlace($0, count: nr) }
        let lowZoom = Int(low[v]), highZoom = min(Int(high[v]), PinOptions.maxZoom)
        let l = firstLoc
        let oneLocation = locations == 1
        let mx = oneLocation ? locX[l] : sx / Double(n), my = oneLocation ? locY[l] : sy / Double(n)
        scratch.lastX = mx; scratch.lastY = my
        var pin = Pin(
            id: PinID(rawValue: nodeID[v]),
            kind: oneLocation ? (n == 1 ? .listing : .building) : .cluster,
            count: n,
            longitude: oneLocation ? locLon[l] : longitude(x: mx),
            latitude: oneLocation ? locLat[l] : WebMercator.latitude(y: my),
            bbox: oneLocation
                ? BoundingBox(minLongitude: locLon[l], minLatitude: locLat[l], maxLongitude: locLon[l], maxLatitude: locLat[l])
                : box(x0: x0, x1: x1, y0: y0, y1: y1),
            expansionZoom: oneLocation ? nil : Int(high[v]) + 1,
            zooms: lowZoom...max(lowZoom, highZoom),
            diameter: options.diameter(count: n),
            listingID: n == 1 ? firstID : nil,
            medianDeposit: medianDeposit,
            medianMonthlyRent: medianRent,
            categoryCounts: categories)
        if !propertySummaries.columns.isEmpty {
            let passing = (Int(start[v])..<Int(end[v])).filter { passes($0, filter) }
            pin.properties = propertySummaries.summaries(rows: passing, of: rowProperties)
        }
        return pin
    }

    /// The one listing of a single-listing pin (`pin.listingID` set): its own attributes. For a
    /// pin from a filtered query this is the listing that passed the filter, never another
    /// listing of its building. Nil for a pin of several listings.
    /// - Throws: `PinError.unknownPin` for a pin of another index.
    /// - Complexity: O(k) for a pin over k listings unfiltered.
    public func listing(of pin: Pin) throws(PinError) -> PinLeaf? {
        guard let id = pin.listingID else { return nil }
        let v = try node(of: pin.id)
        for r in Int(start[v])..<Int(end[v]) where rowID[r] == id { return leaf(r) }
        return nil
    }

    /// The pin with this id (unfiltered), as shown at any zoom of `Pin.zooms`.
    /// - Complexity: O(1) expected, plus O(log n) for the medians.
    public func pin(id: PinID) throws(PinError) -> Pin { pin(try node(of: id)) }

    /// The pins a pin splits into at its expansion zoom (for a pin whose expansion zoom is
    /// `maxZoom + 1`, its locations); empty for a same-location pin.
    /// - Complexity: O(children).
    public func children(of id: PinID) throws(PinError) -> [Pin] {
        let v = try node(of: id)
        var out: [Pin] = []
        var c = firstChild[v]
        while c >= 0 { out.append(pin(Int(c))); c = nextSibling[Int(c)] }
        return out
    }

    /// The first zoom at which the pin splits (its children's first zoom), or nil for a
    /// same-location pin. `maxZoom + 1` (23) means only beyond the deepest zoom.
    /// - Complexity: O(1) expected.
    public func expansionZoom(of id: PinID) throws(PinError) -> Int? {
        let v = try node(of: id)
        return v < locationCount ? nil : Int(high[v]) + 1
    }

    /// One page of the pin's listings, in the index's fixed order: pass `nil` for the first
    /// page, then each page's `next` until it is nil. With `filter`, only the listings that
    /// pass it (those a filtered pin counts): give every page of one walk the same filter.
    /// - Complexity: O(limit) unfiltered (the pin's listings are one contiguous range); with a
    ///   filter, O(the pin's listings scanned to fill the page).
    /// - Throws: `.invalidCursor` for another pin's or another filter's cursor; the errors of
    ///   a filter on properties the listings lack.
    public func leaves(of id: PinID, limit: Int, cursor: PinCursor?, filter: AttributeFilter? = nil) throws(PinError) -> PinLeavesPage {
        guard limit >= 1 else { throw .invalidParameter(name: "limit", value: "\(limit)", requirement: "must be at least 1") }
        let v = try node(of: id)
        let s = Int(start[v]), e = Int(end[v])
        let compiled = try compiled(filter)
        let query = compiled == nil ? id.rawValue
            : SipHash24(k0: 0x6c65_6176_6573, k1: 0).hash(words: [id.rawValue, UInt64(truncatingIfNeeded: filter!.hashValue)])
        var offset = 0
        if let cursor {
            guard cursor.query == query, cursor.offset >= 0, cursor.offset <= e - s else { throw .invalidCursor }
            offset = cursor.offset
        }
        var leaves: [PinLeaf] = []
        var r = s + offset
        while r < e && leaves.count < limit {
            if compiled.map({ passes(r, $0) }) ?? true { leaves.append(leaf(r)) }
            r += 1
        }
        // Unfiltered, the next page starts where this one ended; filtered, after the rows scanned,
        // and there is none when no passing row is left.
        let more = compiled.map { f in (r..<e).contains { passes($0, f) } } ?? (r < e)
        return PinLeavesPage(leaves: leaves, next: more ? PinCursor(query: query, offset: r - s) : nil)
    }

    /// The listing of row `r`, at its displayed position.
    func leaf(_ r: Int) -> PinLeaf {
        let l = Int(rowLocation[r])
        let c = rowCategory[r]
        return PinLeaf(id: rowID[r], longitude: locLon[l], latitude: locLat[l],
                       category: Int(c) < ListingCategory.codeCount ? c : nil,
                       area: rowArea[r].isNaN ? nil : rowArea[r],
                       deposit: rowDeposit[r].isNaN ? nil : rowDeposit[r],
                       monthlyRent: rowRent[r].isNaN ? nil : rowRent[r],
                       properties: rowProperties.names.indices.map { rowProperties.value(column: $0, row: r) })
    }

    /// Listings whose displayed position is within `radius` metres of (longitude, latitude),
    /// passing `filter`, ordered by distance rounded to 100 m, then by listing id; one page
    /// of at most `limit`. Distances are great-circle metres on the sphere of
    /// `SpherePoints.earthRadius` (across ±180° too; within 0.5 % of the ellipsoid's, then
    /// rounded).
    /// - Complexity: O(m log m) for the m listings within the radius, each page (the page is
    ///   cut from the sorted whole); the walk to them is O(log n + m) like `pins`.
    public func nearby(longitude: Double, latitude: Double, radius: Double = 5000, filter: AttributeFilter? = nil,
                       limit: Int = 20, cursor: PinCursor? = nil) throws(PinError) -> NearbyPage {
        guard longitude.isFinite, abs(longitude) <= 180, latitude.isFinite, abs(latitude) <= 85 else {
            throw .invalidParameter(name: "longitude/latitude", value: "\(longitude), \(latitude)",
                                    requirement: "must be within ±180° and ±85°")
        }
        guard radius.isFinite, radius > 0, radius <= 1_000_000 else {
            throw .invalidParameter(name: "radius", value: "\(radius)", requirement: "must be > 0 and at most 1000 km")
        }
        guard limit >= 1 else { throw .invalidParameter(name: "limit", value: "\(limit)", requirement: "must be at least 1") }
        let query = SipHash24(k0: 0x6e65_6172_6279, k1: 0).hash(
            words: [longitude.bitPattern, latitude.bitPattern, radius.bitPattern, UInt64(truncatingIfNeeded: filter?.hashValue ?? 0)])
        var offset = 0
        if let cursor {
            guard cursor.query == query, cursor.offset >= 0 else { throw .invalidCursor }
            offset = cursor.offset
        }
        let filter = try compiled(filter)
        // Degrees spanned by the radius, generously (the longitude scale at the edge nearer the pole).
        let m = WebMercator.metresPerDegree(latitude: latitude)
        let dLat = radius / m.latitude * 1.01
        let poleward = min(abs(latitude) + dLat, 89.9)
        let dLon = min(radius / WebMercator.metresPerDegree(latitude: poleward).longitude * 1.01, 180)
        var lon0 = longitude - dLon, lon1 = longitude + dLon
        if lon0 < -180 { lon0 += 360 }
        if lon1 > 180 { lon1 -= 360 }
        if dLon >= 180 { lon0 = -180; lon1 = 180 }
        let box = BoundingBox(minLongitude: lon0, minLatitude: max(latitude - dLat, -90),
                                 maxLongitude: lon1, maxLatitude: min(latitude + dLat, 90))
        var found: [(distance: Double, id: Int64, row: Int32)] = []
        for rect in frameRects(box) {
            var stack: [Int32] = roots
            while let v32 = stack.popLast() {
                let v = Int(v32)
                if maxX[v] < rect.0 || minX[v] > rect.1 || maxY[v] < rect.2 || minY[v] > rect.3 { continue }
                if v >= locationCount {
                    var c = firstChild[v]
                    while c >= 0 { stack.append(c); c = nextSibling[Int(c)] }
                    continue
                }
                // Great-circle metres (across ±180° too), as ClusterCore measures on the sphere.
                let d = SpherePoints.distance(lon1: longitude, lat1: latitude, lon2: locLon[v], lat2: locLat[v])
                guard d <= radius else { continue }
                let rounded = (d / 100).rounded(.toNearestOrAwayFromZero) * 100
                for r in Int(start[v])..<Int(end[v]) where filter.map({ passes(r, $0) }) ?? true {
                    found.append((rounded, rowID[r], Int32(r)))
                }
            }
        }
        found.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        guard offset <= found.count else { throw .invalidCursor }
        let to = min(found.count, offset + limit)
        let page = found[offset..<to].map { NearbyListing(leaf: leaf(Int($0.row)), distance: $0.distance) }
        return NearbyPage(listings: page, total: found.count, next: to < found.count ? PinCursor(query: query, offset: to) : nil)
    }

    /// The fraction of the pins shown at `zoom` whose drawn disc overlaps another's (centre
    /// distance below the mean of the two diameters, in points at that zoom). 0 by
    /// construction for every zoom (see the cut); a measure for comparisons and tests.
    /// - Complexity: O(p log p) for the p pins at the zoom.
    package func overlapRate(zoom: Int) throws(PinError) -> Double {
        let all = try pins(zoom: Double(zoom))
        return PinOverlap.rate(longitudes: all.map(\.longitude), latitudes: all.map(\.latitude),
                               diameters: all.map(\.diameter), zoom: zoom, tileSize: options.tileSize)
    }
}

/// How many drawn discs overlap: the measure `PinIndex.overlapRate(zoom:)` reports, for any
/// pins (the supercluster baseline's and a grid's too, in the benchmark). `package`: a measure
/// for this package's benchmarks and tests, not for apps.
package enum PinOverlap: Sendable {
    /// The fraction of discs that overlap another (centre distance below the mean of the two
    /// diameters, in points at `zoom` on `tileSize`-point tiles); 0 for no discs.
    /// - Complexity: O(p log p) for p discs up to 50 pt across.
    package static func rate(longitudes: [Double], latitudes: [Double], diameters: [Double], zoom: Int, tileSize: Double = 256) -> Double {
        let n = longitudes.count
        if n == 0 { return 0 }
        let world = tileSize * WebMercator.exp2(Double(zoom))
        // In the pins' own window, so two pins facing each other across ±180° are compared.
        let window = LongitudeWindow(containing: longitudes)
        let xs = longitudes.map { WebMercator.x(longitude: window.unwrap($0)) * world }
        let ys = latitudes.map { WebMercator.y(latitude: $0) * world }
        let order = (0..<n).sorted { xs[$0] < xs[$1] }
        let reach = diameters.max() ?? 0
        var overlapping = [Bool](repeating: false, count: n)
        for (k, i) in order.enumerated() {
            var j = k + 1
            while j < n && xs[order[j]] - xs[i] < reach {
                let o = order[j]
                let dx = xs[o] - xs[i], dy = ys[o] - ys[i]
                let need = (diameters[i] + diameters[o]) / 2
                if dx * dx + dy * dy < need * need { overlapping[i] = true; overlapping[o] = true }
                j += 1
            }
        }
        return Double(overlapping.filter { $0 }.count) / Double(n)
    }
}
