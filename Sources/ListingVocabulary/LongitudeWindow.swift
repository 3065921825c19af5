// Where on the circle of longitudes a set of points is cut open.
//
// Web Mercator and every planar structure (an MST, a bounding box, a picture) need the
// longitudes on a line; the antimeridian is where the line usually starts. Data that straddles
// it (Fiji, Samoa, Tonga, the Aleutians, eastern Russia) would then fall apart into two ends of
// the world. The cut belongs where the data is not: in the widest empty stretch of longitude.
// Data with the antimeridian inside that stretch keeps the usual window (−180°…180°), unchanged.

import ClusterCore

/// The window of longitudes a set of points is laid out in: it starts just after the widest
/// empty stretch of the points' longitudes on the circle, so that no group of points is cut in
/// two by where the line begins. Longitudes west of `west` move one turn east (+360°), so a
/// window's longitudes run from `west` to below `west + 360` and consecutive points along it
/// never differ by a turn.
///
/// `west` is −180 (the usual window, nothing moves) whenever the stretch that contains the
/// antimeridian is the widest (ties included): data away from the antimeridian is laid out
/// exactly as without a window.
public struct LongitudeWindow: Sendable, Equatable {
    /// The western edge in degrees, in [−180, 180).
    public let west: Double

    /// The usual window, −180°…180°.
    public static let standard = LongitudeWindow(west: -180)

    /// A window starting at `west` degrees (normalised into [−180, 180)).
    public init(west: Double) {
        var w = west
        while w >= 180 { w -= 360 }
        while w < -180 { w += 360 }
        self.west = w
    }

    /// The window just after the widest empty stretch of `longitudes` (degrees, −180…180).
    /// An empty set gets the standard window.
    /// - Complexity: O(n) but for data spread so evenly round the circle that no stretch is
    ///   wider than 2 · 360° / 65,536 (then O(n log n)); see `CircularGap`.
    public init(containing longitudes: [Double]) {
        self.init(west: Self.start(of: longitudes, from: -180, period: 360))
    }

    /// `longitude` in this window: moved one turn east when west of `west` by more than
    /// 1e-9° (a centre computed from points on the western edge stays on that edge).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public func unwrap(_ longitude: Double) -> Double { longitude < west - 1e-9 ? longitude + 360 : longitude }

    /// A longitude from the window (or anywhere) back into −180…180 (180 stays 180).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func normalized(_ longitude: Double) -> Double {
        longitude > 180 ? longitude - 360 : (longitude < -180 ? longitude + 360 : longitude)
    }

    /// Degrees east from longitude `a` to `b`, the short way round: in [−180, 180).
    /// - Complexity: O(1).
    public static func east(from a: Double, to b: Double) -> Double {
        let d = (b - a).truncatingRemainder(dividingBy: 360)
        return d >= 180 ? d - 360 : (d < -180 ? d + 360 : d)
    }

    /// `longitudes` each taken the short way round from the first, so points within half a
    /// turn of one another never differ by a turn; unchanged (bit for bit) when they already
    /// lie within half a turn.
    /// - Complexity: O(n).
    package static func unwrapped(_ longitudes: [Double]) -> [Double] {
        guard let first = longitudes.first, let lo = longitudes.min(), let hi = longitudes.max(), hi - lo > 180 else {
            return longitudes
        }
        return longitudes.map { first + east(from: first, to: $0) }
    }

    /// Where the circle [`from`, `from + period`] of `values` is best cut: `from` when the
    /// stretch across `from` (between the largest and the smallest value) is the widest empty
    /// one (ties included), otherwise the value just after the widest gap between consecutive
    /// values (`CircularGap`). Pins use it on Mercator x (period 1), maps on degrees.
    package static func start(of values: [Double], from: Double, period: Double) -> Double {
        let gap = CircularGap(of: values, from: from, period: period)
        return gap.isAcross ? from : gap.upper
    }
}
