import Prometheus

/// The server's Prometheus metrics (swift-prometheus's registry, `GET /metrics`): requests by
/// route and status, answer durations by route, reloads by result, and the index served
/// (version, listings shown). No position, id or query value is ever a label.
public struct ServerMetrics: Sendable {
    /// The registry the text exposition is read from.
    public let registry: PrometheusCollectorRegistry

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    /// The upper bounds of the duration histogram's buckets.
    static let buckets: [Duration] = [.microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
                                      .milliseconds(10), .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(500)]

    /// Counts one answer of `route` with `status` that took `duration`.
    func record(route: String, status: Int, duration: Duration) {
        registry.makeCounter(name: "geocluster_http_requests_total", labels: [("route", route), ("status", String(status))]).increment()
        registry.makeDurationHistogram(name: "geocluster_http_request_duration_seconds", labels: [("route", route)],
                                       buckets: Self.buckets).record(duration)
    }

    /// Counts a reload by its result (`ok`, `failed`, `busy`).
    func reloaded(_ result: String) {
        registry.makeCounter(name: "geocluster_reloads_total", labels: [("result", result)]).increment()
    }

    /// Says which index is served.
    func serving(_ snapshot: PinsService.Snapshot) {
        registry.makeGauge(name: "geocluster_index_version").set(to: Double(snapshot.version))
        registry.makeGauge(name: "geocluster_index_listings").set(to: Double(snapshot.dataset.shown))
        registry.makeGauge(name: "geocluster_index_locations").set(to: Double(snapshot.dataset.index.locationCount))
    }

    /// The text exposition format.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
