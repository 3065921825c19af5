// PinIndex: map pins for every zoom 0–22, cut from ONE single-linkage hierarchy over
// privacy-masked positions.
//
// How it is built (PinIndex+Build.swift calls one function per step), in order:
// 1. Mask (`maskedLocations`, PinIndex+Mask.swift). Listings are grouped into locations (a
//    building key, else the true coordinate quantised to 1e-6°), a key whose listings lie
//    farther apart than `locationTolerance` is refused, and each location gets its displayed
//    position from the PrivacyMask at its anchor (the median of its listings' coordinates). Nothing after this step reads a true
//    coordinate, and the index stores none.
// 1b. Frame (`openAtSeam`, PinIndex+Build.swift). When the displayed longitudes straddle the
//    antimeridian with a wider empty stretch elsewhere, Mercator x is cut open in that
//    stretch instead of at ±180°, so every later step sees the data in one piece.
// 2. Hierarchy (`hierarchy`, PinIndex+Hierarchy.swift). The Euclidean minimum spanning tree
//    of the locations' displayed positions in Web Mercator (ClusterCore's exact Borůvka MST;
//    with `minSamples > 1` the mutual-reachability MST of HDBSCAN) gives the single-linkage
//    hierarchy: merging its edges in ascending length merges the densest groups first. Locations are put in a canonical
//    order (by a keyed hash of their key) first, so input order decides nothing.
// 3. Cut (`cut`, Cut.swift and Cut+Overlaps.swift), from zoom 22 down to 0, with one
//    union-find that is never undone (so every pin at z+1 lies inside exactly one pin at z:
//    the pins nest by construction):
//    a. threshold: MST edges no longer than t_z = radius px / (tileSize · 2^z) (the ground
//       distance `radius` pixels span at z, in Mercator units) merge their groups, shortest
//       first, unless the merged group's bounding box would be wider (diagonal) than
//       `maxSpread` pixels at z; such an edge waits for a lower zoom. A chain of buildings
//       along a road thus becomes several pins of bounded spread, not one long pin whose
//       centre lies off the data;
//    b. overlap: pins whose drawn discs would overlap (diameter by `PinOptions.diameter`,
//       centres at the count-weighted centroid) merge in rounds until no two discs overlap:
//       in a round the overlapping pairs are taken most overlapping first, and a pin merges
//       at most once (a pair whose pin has merged already waits for the next round, tested
//       again against the merged pin's new disc), so a chain of overlaps does not join at
//       once into one pin that the discs did not need. The overlap rate at every zoom is 0
//       by construction (checked by `overlapRate(zoom:)` and the tests).
//    Each group that changed at zoom z becomes a new hierarchy node; a group that did not
//    change keeps its node (and its id) from the zoom above.
// 4. Order (`nodeRanges`, `rows`, `nodeIDs`, `columns`, PinIndex+Order.swift). A depth-first
//    walk of the final forest lists the listings so that every node, at every zoom, is one
//    contiguous range of that order; attributes are stored as columns in that order. Leaves paging is then a slice, and a filtered count is a scan of a range.
//
// Queries walk the same forest from its roots like an R-tree (each node keeps the bounding
// box of its displayed positions, which contains the centroid of every node below it):
// a node whose box misses the viewport is skipped, a node shown at the zoom is tested and
// reported, any other node is opened. A phone viewport holds a few hundred pins at most
// (discs do not overlap), so a query touches few nodes.

import ClusterCore

/// How a map app sizes the pins' discs, which decides how far apart the cut keeps them.
public enum DiscSizing: String, Sendable, CaseIterable {
    /// By the pin's own count (`PinOptions.diameter(count:)`, the `diameter` every pin
    /// carries): a pin's size does not depend on what else is in view. Discs drawn so never
    /// overlap.
    case count
    /// By anything between `minDiameter` and `maxDiameter`, such as the count relative to
    /// the largest count in view (as many listing apps draw them): pins are cut as if every
    /// disc were `maxDiameter` across, so no such rule makes two discs overlap. Coarser pins
    /// at city zooms than `.count`.
    case view
}

/// Options of a `PinIndex`. Every pixel is a 1/256 of a tile side at `tileSize` 256 (a
/// point on iOS/Android maps).
public struct PinOptions: Sendable, Equatable {
    /// The privacy policy; no default (see `PrivacyPolicy`).
    public var privacy: PrivacyPolicy
    /// Merge threshold in pixels at every zoom (default `defaultRadius`, 12.5, half the
    /// smallest disc): groups closer than this many pixels (single linkage, between their
    /// nearest locations) become one pin. The threshold only joins what is close; the overlap
    /// merges decide how coarse a zoom's pins must be, so a larger radius merges more than
    /// the discs need (docs/pins.md).
    public var radius: Double
    /// Per-zoom thresholds in pixels, overriding `radius` at the zooms given.
    public var radiusByZoom: [Int: Double]
    /// Tile side in pixels (default 256): the world is `tileSize · 2^z` pixels wide at zoom z.
    public var tileSize: Double
    /// Largest spread of a threshold merge, as the diagonal of the group's bounding box in
    /// pixels at the zoom (default 120). Overlap merges may exceed it.
    public var maxSpread: Double
    /// Drawn disc diameter of a single listing, in points (default 25).
    public var minDiameter: Double
    /// Drawn disc diameter of pins of `saturationCount` listings or more (default 50).
    public var maxDiameter: Double
    /// The count at which the disc reaches `maxDiameter` (default 1000): diameters follow the
    /// square root of the count between 1 and this fixed bound, so a pin's size does not depend
    /// on what else is in view and does not change with the zoom.
    public var saturationCount: Int
    /// How the app that draws the pins sizes their discs (default `.count`); the cut keeps
    /// the discs of that rule apart.
    public var discSizing: DiscSizing
    /// HDBSCAN's `minSamples` (scikit-learn's convention, the location itself counted) for
    /// the mutual-reachability distance of the hierarchy; 1 (default) and 2 are plain single
    /// linkage.
    public var minSamples: Int
    /// Worker threads for the MST, the mask and the medians' structures (the result is the
    /// same for any value).
    public var threads: Int
    /// How far apart, in metres, the listings of one location key (a building id) may lie
    /// (default 30): a listing of a new location must lie within half of it of the location's
    /// anchor (the coordinate-wise median of its listings), one of a published location within
    /// it of the farthest true position its published point allows. A listing outside is left
    /// out on its own (`PinIndex.setAside`), so one listing given a target's building id and a
    /// chosen coordinate neither moves the building nor removes it.
    public var locationTolerance: Double

    /// The default `radius`, pixels: half of the default `minDiameter`.
    public static let defaultRadius: Double = 12.5

    /// The default `locationTolerance`, metres.
    public static let defaultLocationTolerance: Double = 30

    /// The default `minSamples`: plain single linkage (1 and 2 give the same hierarchy).
    public static let defaultMinSamples = 2

    /// The default `tileSize`, pixels (Google-style web maps).
    public static let defaultTileSize: Double = 256

    /// The deepest zoom with pins of its own (22). `expansionZoom` may say 23: apart only beyond.
    public static let maxZoom = 22

    /// Options with the given privacy policy and, for the rest, the defaults each property
    /// names (every parameter sets the property of its name; `validate()` checks them, as
    /// the build does).
    public init(privacy: PrivacyPolicy, radius: Double = PinOptions.defaultRadius, radiusByZoom: [Int: Double] = [:], tileSize: Double = PinOptions.defaultTileSize,
                maxSpread: Double = 120, minDiameter: Double = 25, maxDiameter: Double = 50,
                saturationCount: Int = 1000, discSizing: DiscSizing = .count, minSamples: Int = PinOptions.defaultMinSamples, threads: Int = 1,
                locationTolerance: Double = PinOptions.defaultLocationTolerance) {
        self.privacy = privacy
        self.radius = radius
        self.radiusByZoom = radiusByZoom
        self.tileSize = tileSize
        self.maxSpread = maxSpread
        self.minDiameter = minDiameter
        self.maxDiameter = maxDiameter
        self.saturationCount = saturationCount
        self.discSizing = discSizing
        self.minSamples = minSamples
        self.threads = threads
        self.locationTolerance = locationTolerance
    }

    /// The drawn diameter in points of a pin of `count` listings: with `.count` sizing
    /// `minDiameter + (maxDiameter − minDiameter) · √((min(count, saturationCount) − 1) / (saturationCount − 1))`,
    /// with `.view` sizing `maxDiameter` (the most any rule between the two may draw).
    /// - Complexity: O(1).
    @inline(__always)
    public func diameter(count: Int) -> Double {
        if discSizing == .view { return maxDiameter }
        let c = Double(min(max(count, 1), saturationCount))
        let s = saturationCount > 1 ? ((c - 1) / Double(saturationCount - 1)).squareRoot() : 1
        return minDiameter + (maxDiameter - minDiameter) * s
    }

    /// The threshold at `zoom` in pixels.
    public func radius(atZoom zoom: Int) -> Double { radiusByZoom[zoom] ?? radius }

    /// Checks every option's range.
    public func validate() throws(PinError) {
        func positive(_ name: String, _ v: Double) throws(PinError) {
            guard v.isFinite, v > 0 else { throw .invalidParameter(name: name, value: "\(v)", requirement: "must be a finite number > 0") }
        }
        try positive("radius", radius)
        for (z, r) in radiusByZoom.sorted(by: { $0.key < $1.key }) {
            guard (0...PinOptions.maxZoom).contains(z) else {
                throw .invalidParameter(name: "radiusByZoom", value: "\(z)", requirement: "zooms are 0...\(PinOptions.maxZoom)")
            }
            try positive("radiusByZoom[\(z)]", r)
        }
        try positive("tileSize", tileSize)
        try positive("maxSpread", maxSpread)
        try positive("minDiameter", minDiameter)
        guard maxDiameter.isFinite, maxDiameter >= minDiameter else {
            throw .invalidParameter(name: "maxDiameter", value: "\(maxDiameter)", requirement: "must be finite and at least minDiameter")
        }
        guard saturationCount >= 1 else {
            throw .invalidParameter(name: "saturationCount", value: "\(saturationCount)", requirement: "must be at least 1")
        }
        guard minSamples >= 1 else {
            throw .invalidParameter(name: "minSamples", value: "\(minSamples)", requirement: "must be at least 1")
        }
        guard locationTolerance.isFinite, locationTolerance >= 0 else {
            throw .invalidParameter(name: "locationTolerance", value: "\(locationTolerance)", requirement: "must be a finite distance >= 0 metres")
        }
        guard threads >= 1 else {
            throw .invalidParameter(name: "threads", value: "\(threads)", requirement: "must be at least 1")
        }
    }
}

/// Map pins for zooms 0–22 over listings, built once, queried without rebuilding; every
/// published position is a displayed (masked) one, and no true coordinate is stored.
///
/// ```swift
/// var listings = PinListings()
/// listings.append(id: 1, longitude: 127.03, latitude: 37.50, category: 0, deposit: 5000, monthlyRent: 50)
/// let index = try PinIndex(listings: listings,
///                          options: PinOptions(privacy: .displaced(try PrivacyMask(key: secret))))
/// let pins = try index.pins(zoom: 14.6, bbox: viewport)      // zoom floors to 14
/// let page = try index.leaves(of: pins[0].id, limit: 50, cursor: nil)
/// ```
///
/// **Thread safety.** An immutable `Sendable` value: build it once (off the main thread for
/// large inputs) and query it from any number of threads at once; filters apply at query time,
/// so no query ever needs a rebuild.
///
/// **Privacy.** Built under `PrivacyPolicy.displaced`, every position, box, centroid, filter
/// result and distance it returns comes from displayed positions; the key and any `MaskStore`
/// belong on the server or in the device's secret store, never in an app bundle.
public struct PinIndex: Sendable {
    /// The options it was built with.
    public let options: PinOptions

    /// Where the Mercator line is cut open, as an x in [0, 1): every x below it is stored one
    /// turn east (x + 1), so the frame runs from `seam` to `seam + 1` and groups merge across
    /// the antimeridian. 0 (the usual frame) unless the widest empty stretch of the displayed
    /// longitudes lies elsewhere (`LongitudeWindow`). Positions and boxes are normalised back
    /// into −180…180 on the way out (a box across the antimeridian has `minLongitude >
    /// maxLongitude`), and viewports are moved into the frame on the way in.
    let seam: Double

    // Locations (0..<locationCount), in canonical order: displayed position in degrees and
    // in Web Mercator units.
    let locLon: [Double]
    let locLat: [Double]
    let locX: [Double]
    let locY: [Double]

    // Hierarchy nodes: 0..<locationCount are the locations, the rest the merged groups.
    let parent: [Int32]
    let firstChild: [Int32]
    let nextSibling: [Int32]
    /// Zooms at which the node is shown: low...high (high = maxZoom + 1 for locations;
    /// low > high for a node that no zoom shows).
    let low: [UInt8]
    let high: [UInt8]
    /// The node's listings: rows start..<end of the listing order.
    let start: [Int32]
    let end: [Int32]
    /// Count-weighted centroid and bounding box, in Mercator units.
    let cx: [Double]
    let cy: [Double]
    let minX: [Double]
    let maxX: [Double]
    let minY: [Double]
    let maxY: [Double]
    let nodeID: [UInt64]
    /// The nodes shown at zoom 0, in creation order.
    let roots: [Int32]
    /// Open-addressing table from id to node (−1 empty), capacity a power of two.
    let idTable: [Int32]

    /// Locations in the depth-first order ("runs": a location's rows are one run of rows):
    /// where each run ends, its location and its Mercator position. A filtered scan reads
    /// these in order instead of jumping through the location arrays (whose order is the
    /// canonical one), which made the scan much faster (docs/performance.md).
    let runEnd: [Int32]
    let runLocation: [Int32]
    let runX: [Double]
    let runY: [Double]
    /// The categories present in each run, as bits (bit 16: no category): a category filter
    /// skips a run none of whose listings can pass without testing them one by one.
    let runCategories: [UInt32]

    // Listings in the depth-first order (rows).
    let rowID: [Int64]
    let rowLocation: [Int32]
    let rowCategory: [UInt8]
    let rowArea: [Double]
    let rowDeposit: [Double]
    let rowRent: [Double]
    /// The caller's own columns, in row order, and the means to summarise them over a node.
    let rowProperties: ListingProperties
    let propertySummaries: PropertySummaries
    /// Exact medians of deposit and rent over any range of rows.
    let depositQuantiles: RangeQuantiles
    let rentQuantiles: RangeQuantiles
    /// Each node's median deposit and rent, `nodeMedians[2v]` and `nodeMedians[2v + 1]` (NaN
    /// when none is known): computed once at build, so that an unfiltered pin costs no
    /// order-statistics query.
    let nodeMedians: [Double]
    /// Listings per category present, per node: `categoryCounts[v · categoryCodes.count + k]`
    /// listings of `categoryCodes[k]` in node v.
    let categoryCodes: [UInt8]
    let categoryCounts: [UInt32]

    /// The listings the build left out (conflicting with their location, or held back).
    public internal(set) var setAside = SetAside()

    /// The number of listings.
    public var listingCount: Int { rowID.count }
    /// The names of the caller's own columns, in the order every leaf lists their values.
    public var propertyNames: [String] { rowProperties.names }
    /// The number of distinct locations.
    public var locationCount: Int { locLon.count }
    /// The number of hierarchy nodes (locations included).
    public var nodeCount: Int { parent.count }
}
