import Datasets
import Pins

/// A listing file built into a `PinIndex` the way every map-pin command and the server build
/// it: read, location keys checked, masked (the mask file loaded, extended and saved), indexed,
/// and the listings left out reported. Everything a pin query needs, and nothing else of the
/// file: no true position is kept.
public struct PinsDataset: Sendable {
    /// The index over the displayed positions.
    public let index: PinIndex
    /// The file's id texts and attributes (its listings handed to the index).
    public let source: PinSource
    /// The names the user's own columns are published under (`PinFeature.ownNames`).
    public let propertyNames: [String]
    /// Listings shown (those the build set aside are not).
    public let shown: Int

    /// What a build is made from: the file, how it is read and masked, and the hierarchy's
    /// parameters (`geocluster pins`'s `--radius` and `--min-samples`).
    public struct Recipe: Sendable {
        public var input: String
        public var source: PinSourceSettings
        /// Merge threshold in pixels of 256-pixel tiles.
        public var radius: Double
        /// HDBSCAN's min_samples for the hierarchy (the location itself counted).
        public var minSamples: Int
        /// The tiles' side in pixels that zoom levels count: 256 (`geocluster pins`'s default)
        /// or 512 (MapLibre's and Mapbox GL's zoom levels, the server's).
        public var tileSize: Double
        /// How the app sizes the discs (`--disc-sizing`), which sets how far apart pins are cut.
        public var discSizing: DiscSizing = .count
        /// The names the answers write themselves: an own column named like one is published
        /// as `own_NAME` (`PinFeature.ownNames`).
        public var reservedNames: Set<String> = PinFeature.builtInNames

        public init(input: String, source: PinSourceSettings, radius: Double = PinOptions.defaultRadius,
                    minSamples: Int = PinOptions.defaultMinSamples, tileSize: Double = PinOptions.defaultTileSize) {
            self.input = input; self.source = source; self.radius = radius; self.minSamples = minSamples; self.tileSize = tileSize
        }
    }

    /// Reads, masks and indexes `recipe.input`.
    /// - Parameters:
    ///   - filter: the filter the caller will query with, checked against the file's columns
    ///     before anything is built (nil: none, or checked per query with `check(_:)`).
    ///   - progress: told each stage as it starts.
    /// - Throws: `DatasetError` (reading), `HarnessError` (keys, mask file), `PinError` (listings, options).
    public static func build(_ recipe: Recipe, filter: AttributeFilter? = nil, progress: (String) -> Void = { _ in }) throws -> PinsDataset {
        progress("reading \(recipe.input)")
        var data = try recipe.source.read(recipe.input, filter: filter)
        progress("masking and building the index of \(FormatNumber.grouped(data.count)) listings")
        let policy = try recipe.source.policy(for: data.listings)
        let options = recipe.source.options(privacy: policy, radius: recipe.radius,
                                            minSamples: recipe.minSamples, tileSize: recipe.tileSize,
                                            discSizing: recipe.discSizing)
        let index = try PinIndex(listings: data.takeListings(), options: options)
        recipe.source.report(index.setAside, source: data, input: recipe.input)
        let shown = data.count - index.setAside.conflicting.count - index.setAside.heldBack.count
        return PinsDataset(index: index, source: data, propertyNames: PinFeature.ownNames(index.propertyNames, reserved: recipe.reservedNames,
                                                                                    warn: recipe.source.warn),
                           shown: shown)
    }

    /// The attribute a filter tests that the file has no column for, nil when there is none:
    /// such a filter would silently match nothing, so callers refuse it.
    public func missingAttribute(of filter: AttributeFilter?) -> ListingAttribute? {
        guard let filter else { return nil }
        let tested: [(ListingAttribute, Bool)] = [(.category, filter.categories != nil), (.area, filter.area != nil),
                                                  (.deposit, filter.deposit != nil), (.monthlyRent, filter.monthlyRent != nil)]
        return tested.first { $0.1 && !source.attributes.contains($0.0) }?.0
    }
}
