// The map-pin comparison's record (`geocluster bench --pins-zooms`, `OUT/pins.csv`): one row
// per dataset × implementation × zoom. Its columns are documented in `reports/README.md`
// (`BenchTables.pinsColumns`).

/// One implementation's map pins at one zoom on one dataset. Every implementation ran in a
/// process of its own (its build time, query times and peak memory are its own); the scores
/// (ARI, overlap rate, pins per viewport) are computed by the parent from what the process
/// wrote, the same way for every implementation.
public struct PinsRow: Sendable, Equatable {
    /// Phone viewports queried per zoom.
    public static let viewportsPerZoom = 200

    public var dataset: String
    /// `pinindex`, `supercluster` (the Swift baseline in Pins), `grid`, `pysupercluster`.
    public var implementation: String
    /// The implementation's version (geocluster's, or the Python package's).
    public var version: String
    public var zoom: Int
    public var status: RunStatus
    /// Why the implementation's process did not finish (empty when ok).
    public var error: String
    /// Pins at the zoom over the whole dataset.
    public var pins: Int?
    /// Mean pins in a 390 × 844 pt phone viewport (the same viewports for every implementation).
    public var pinsPerViewport: Double?
    /// ARI of each listing's pin at the zoom against the truth column.
    public var ari: Double?
    /// ARI of each listing's pin at the zoom against its supercluster baseline pin at the same
    /// zoom (1 for supercluster itself; nil when either did not finish).
    public var ariVsSupercluster: Double?
    /// Share of the zoom's pins whose drawn discs (25–50 pt by the square root of the count)
    /// overlap another's.
    public var overlap: Double?
    /// Seconds to build: the whole index, every zoom at once (PinIndex, supercluster,
    /// pysupercluster) or this zoom's binning (grid).
    public var buildSeconds: Double?
    /// Viewport query times, seconds (none for grid).
    public var queryP50: Double?
    public var queryP99: Double?
    /// The implementation's process's peak resident memory (VmHWM, MB) after reading the file,
    /// building and querying.
    public var peakMegabytes: Double?

    public init(dataset: String, implementation: String, version: String = "", zoom: Int, status: RunStatus = .ok,
                error: String = "") {
        self.dataset = dataset; self.implementation = implementation; self.version = version; self.zoom = zoom
        self.status = status; self.error = error
    }
}
