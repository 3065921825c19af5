import ListingVocabulary

/// What the page of `geocluster privacy` shows: an anonymity audit's headline and, for each
/// location, its displayed point, its k and the largest 30 m spot of its ring.
public struct AnonymityPage: Sendable {
    /// One audited location.
    public struct Location: Sendable, Equatable {
        /// The displayed point, degrees.
        public var longitude: Double, latitude: Double
        /// Locations consistent with the displayed point.
        public var k: Int
        /// The most of them one 30 m spot holds.
        public var largestSpot: Int

        public init(longitude: Double, latitude: Double, k: Int, largestSpot: Int) {
            self.longitude = longitude; self.latitude = latitude; self.k = k; self.largestSpot = largestSpot
        }
    }

    /// The audited file, as named on the command line.
    public var input: String
    /// The mask's rule in words.
    public var rule: String
    /// The audit's headline.
    public var summary: String
    /// The K the page colours against.
    public var target: Int
    public var locations: [Location]

    public init(input: String, rule: String, summary: String, target: Int, locations: [Location]) {
        self.input = input; self.rule = rule; self.summary = summary; self.target = target; self.locations = locations
    }
}

/// The HTML page of `geocluster privacy` (headline, the distribution of k, a map of the
/// displayed points coloured by k).
public enum PrivacyReport {
    /// The HTML page: a self-contained file (inline SVG, no script).
    public static func page(_ audit: AnonymityPage) -> String {
        let K = audit.target, rule = audit.rule
        var w = XMLWriter()
        w.raw("<!DOCTYPE html>\n")
        w.open("html", ["lang": "en"])
        w.open("head")
        w.empty("meta", ["charset": "utf-8"])
        w.element("title", text: "Anonymity of the displayed positions")
        w.element("style", text: "body{font-family:sans-serif;max-width:960px;margin:2em auto;color:#222}td,th{padding:2px 10px;text-align:right}")
        w.close()
        w.open("body")
        w.element("h1", text: "Anonymity of the displayed positions")
        w.element("p", text: "\(audit.input): \(rule). For each location, k is the number of locations an attacker who knows every "
                  + "building must choose among: those sharing its displayed point, or under the plain annulus those whose true "
                  + "position lies in the ring of admissible offsets around it. It comes within 30 m of the truth by naming the spot "
                  + "that holds the most of them.")
        w.element("p", text: audit.summary)
        w.element("h2", text: "Distribution of k")
        w.raw(histogram(audit, target: K))
        w.element("h2", text: "Displayed points by k")
        w.element("p", text: "Red: alone in its ring. Orange: not anonymous at K = \(K) (fewer than \(K) locations, or a 30 m spot "
                  + "holding more than 1/\(K) of them). Blue: anonymous at K.")
        w.raw(map(audit, target: K))
        w.close()
        w.close()
        return w.finish()
    }

    /// The colours of k = 1, not anonymous at K, anonymous at K.
    static let colours = ["#d7301f", "#fc8d59", "#3182bd"]

    static func colour(_ k: Int, _ K: Int) -> String { k <= 1 ? colours[0] : k < K ? colours[1] : colours[2] }

    /// Whether a location's ring is anonymous at K (the audit's `share(notAnonymousAt:)`).
    static func colour(_ l: AnonymityPage.Location, _ K: Int) -> String {
        l.k <= 1 ? colours[0] : l.largestSpot * K > l.k ? colours[1] : colours[2]
    }

    /// Bars of the number of locations at k = 1 … 19 and 20 or more.
    static func histogram(_ audit: AnonymityPage, target K: Int) -> String {
        var bins = [Int](repeating: 0, count: 20)
        for l in audit.locations { bins[min(max(l.k, 1), 20) - 1] += 1 }
        let top = max(bins.max() ?? 1, 1)
        let width = 900.0, height = 260.0, left = 60.0, bottom = 40.0, bar = (width - left - 10) / 20
        var svg = XMLWriter()
        svg.open("svg", ["xmlns": "http://www.w3.org/2000/svg", "width": svgNumber(width), "height": svgNumber(height),
                         "viewBox": "0 0 \(svgNumber(width)) \(svgNumber(height))", "font-size": "12"])
        for (i, n) in bins.enumerated() {
            let h = (height - bottom - 20) * Double(n) / Double(top)
            let x = left + Double(i) * bar
            svg.empty("rect", ["x": svgNumber(x + 2), "y": svgNumber(height - bottom - h), "width": svgNumber(bar - 4),
                               "height": svgNumber(h), "fill": colour(i + 1, K)])
            svg.element("text", ["x": svgNumber(x + bar / 2), "y": svgNumber(height - bottom + 16), "text-anchor": "middle"],
                        text: i == 19 ? "20+" : "\(i + 1)")
            if n > 0 {
                svg.element("text", ["x": svgNumber(x + bar / 2), "y": svgNumber(height - bottom - h - 4), "text-anchor": "middle"],
                            text: "\(n)")
            }
        }
        svg.element("text", ["x": svgNumber(left + (width - left) / 2), "y": svgNumber(height - 4), "text-anchor": "middle"],
                    text: "k: locations consistent with the displayed point (red: 1, orange: below \(K), blue: \(K) or more)")
        svg.element("text", ["x": "14", "y": svgNumber((height - bottom) / 2), "transform": "rotate(-90 14 \(svgNumber((height - bottom) / 2)))",
                             "text-anchor": "middle"], text: "locations")
        svg.close()
        return svg.finish()
    }

    /// The displayed points in Web Mercator, coloured by k, the blue ones first so the others
    /// stay on top.
    static func map(_ audit: AnonymityPage, target K: Int) -> String {
        let pts = audit.locations
        guard !pts.isEmpty else { return "<p>No locations.</p>" }
        let xs = pts.map { WebMercator.x(longitude: $0.longitude) }, ys = pts.map { WebMercator.y(latitude: $0.latitude) }
        let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        let side = 900.0, span = max(x1 - x0, y1 - y0, 1e-9)
        let scale = (side - 20) / span
        let w = (x1 - x0) * scale + 20, h = (y1 - y0) * scale + 20
        var svg = XMLWriter()
        svg.open("svg", ["xmlns": "http://www.w3.org/2000/svg", "width": svgNumber(w), "height": svgNumber(h),
                         "viewBox": "0 0 \(svgNumber(w)) \(svgNumber(h))"])
        svg.empty("rect", ["width": svgNumber(w), "height": svgNumber(h), "fill": "#f7f7f7"])
        let rank = pts.map { colours.firstIndex(of: colour($0, K))! }
        for i in pts.indices.sorted(by: { (rank[$0], $0) > (rank[$1], $1) }) {
            svg.empty("circle", ["cx": svgNumber(10 + (xs[i] - x0) * scale), "cy": svgNumber(10 + (ys[i] - y0) * scale),
                                 "r": rank[i] < 2 ? "2.2" : "1.4", "fill": colours[rank[i]]])
        }
        svg.close()
        return svg.finish()
    }
}
