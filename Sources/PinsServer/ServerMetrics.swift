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

    // The metrics' names and help (swift-prometheus's descriptor is not Sendable, so each is
    // made where it is used).
    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geocluster", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "HTTP answers by route and status.")
    }
    static var durations: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geocluster", subsystem: "http", metricName: "request_duration",
            unitName: "seconds", helpText: "Time from a request's arrival to its answer, by route.")
    }
    static var reloads: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geocluster", metricName: "reloads", unitName: "total",
            helpText: "Index rebuilds by result (ok, failed, busy).")
    }
    static var version: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geocluster", subsystem: "index", metricName: "version", unitName: "",
            helpText: "The version of the index served: 1 at start, one more a reload.")
    }
    static var listings: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geocluster", subsystem: "index", metricName: "listings", unitName: "",
            helpText: "Listings the index shows.")
    }
    static var locations: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geocluster", subsystem: "index", metricName: "locations", unitName: "",
            helpText: "Displayed points the listings are shown at.")
    }

    /// Counts one answer of `route` with `status` that took `duration`.
    func record(route: String, status: Int, duration: Duration) {
        registry.makeCounter(descriptor: Self.requests, labels: [("route", route), ("status", String(status))]).increment()
        registry.makeDurationHistogram(descriptor: Self.durations, labels: [("route", route)], buckets: Self.buckets).record(duration)
    }

    /// Counts a reload by its result (`ok`, `failed`, `busy`).
    func reloaded(_ result: String) {
        registry.makeCounter(descriptor: Self.reloads, labels: [("result", result)]).increment()
    }

    /// Says which index is served.
    func serving(_ snapshot: PinsService.Snapshot) {
        registry.makeGauge(descriptor: Self.version).set(to: Double(snapshot.version))
        registry.makeGauge(descriptor: Self.listings).set(to: Double(snapshot.dataset.shown))
        registry.makeGauge(descriptor: Self.locations).set(to: Double(snapshot.dataset.index.locationCount))
    }

    /// The text exposition format.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
