/// What one implementation's process of the pin comparison reports (`geocluster pins-cell`,
/// and scripts/peers/peer_cell.py with `--pins-zooms`): the same JSON from both, so its keys
/// are snake_case as Python writes them.
public struct PinsCellReport: Codable, Sendable, Equatable {
    public struct Zoom: Codable, Sendable, Equatable {
        public var zoom: Int
        /// Pins at the zoom over the whole dataset (as many rows as the pins file has there).
        public var pins: Int?
        /// Pins returned by all the zoom's viewport queries together.
        public var viewport_pins: Int
        /// Each viewport query's time, seconds (empty: the implementation has no query).
        public var query_seconds: [Double]
        /// This zoom's own build time (grid), seconds.
        public var build_seconds: Double?

        public init(zoom: Int, pins: Int? = nil, viewport_pins: Int, query_seconds: [Double], build_seconds: Double? = nil) {
            self.zoom = zoom; self.pins = pins; self.viewport_pins = viewport_pins
            self.query_seconds = query_seconds; self.build_seconds = build_seconds
        }
    }

    /// `ok`, or a `RunStatus` raw value.
    public var status: String
    public var error: String?
    public var version: String?
    public var settings: String?
    public var points: Int?
    public var read_seconds: Double?
    /// The whole index, every zoom at once (nil for grid: per zoom).
    public var build_seconds: Double?
    /// VmHWM after reading, building and the viewport queries, MB.
    public var peak_mb: Double?
    public var zooms: [Zoom]?

    public init(status: String, error: String? = nil, version: String? = nil) {
        self.status = status; self.error = error; self.version = version
    }
}
