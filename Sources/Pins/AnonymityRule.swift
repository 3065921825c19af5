// k-anonymity for the privacy mask: every displayed point is shared by at least K locations
// lying pairwise farther apart than an attacker's guess can cover, so nothing published tells
// which of them a listing is in.

import ClusterCore

/// The rule of `PrivacyMask.requiring(_:)` — the default of `PrivacyMask(key:)`: locations are
/// put in groups of at least K (`minimum`) and every listing of a group is shown at the group's
/// one *shared point*, the centroid of its founding members' true positions.
///
/// The members of a group lie pairwise more than 2 × `spot` metres apart, so a disc of radius
/// `spot` (an attacker's guess "within 30 m") holds at most one of them, and each lies within
/// `cap` metres of the shared point. Everything published about a group — its point, its
/// listings pooled as one location (leaves in id order), counts, medians — is the same whichever
/// member holds which listing, so an attacker who knows every building's position (a registry),
/// simulates the rule with keys of its own, uses that every location is shown once, or posts
/// listings at buildings of its choice (learning which group a building is in) can at best
/// name one member per listing: it comes within `spot` of the truth for at most 1 in K of a
/// group's locations.
///
/// Locations are counted in location keys: a place that stands for several keys (units within
/// `PrivacyMask.unitRadius` merged into one place, which one guess names together) goes into a
/// group holding at least K times its keys, so the 1 in K holds for keys as for places.
///
/// Groups are formed once and kept (`MaskStore`): a stored location stays in its group. A new
/// location joins the nearest stored group whose point lies within `cap` and whose present
/// members all lie farther than 2 × `spot` from it; the others found new groups (founders in a
/// keyed order along a Hilbert curve, each with its nearest compatible locations within
/// `cap / 2`), and those left over join the nearest compatible group. A location with no
/// compatible group within reach is *held back*: not published until enough neighbours arrive.
///
/// Spatial cloaking after Gruteser & Grunwald (2003), with the diversity condition counted in
/// an attacker's guesses rather than in addresses.
public struct AnonymityRule: Sendable, Equatable {
    /// The default `minimum`.
    public static let defaultMinimum = 5
    /// The default `cap`, metres.
    public static let defaultCap: Double = 1_500
    /// The largest `minimum` accepted.
    public static let largestMinimum = 1_000
    /// The default `spot`, metres.
    public static let defaultSpot: Double = 30
    /// The rule a publication gets unless it asks for another: K = 5, cap 1,500 m, spot 30 m.
    public static let standard = try! AnonymityRule(minimum: defaultMinimum)

    /// K: the fewest locations that share one displayed point.
    public let minimum: Int
    /// The radius of an attacker's guess, metres: members of a group lie more than twice this apart.
    public let spot: Double
    /// The farthest a shared point lies from any of its members' true positions, metres.
    public let cap: Double

    /// - Throws: `PinError.invalidParameter` naming `minimum` (2...`largestMinimum`), `spot`
    ///   (finite, at least 1 m) or `cap` (finite, above 4 × `spot` so that members fit, at most
    ///   `PrivacyMask.maximumDistance`).
    public init(minimum: Int, cap: Double = AnonymityRule.defaultCap, spot: Double = AnonymityRule.defaultSpot) throws(PinError) {
        guard (2...Self.largestMinimum).contains(minimum) else {
            throw .invalidParameter(name: "minAnonymity", value: "\(minimum)",
                                    requirement: "must be 2...\(Self.largestMinimum) locations")
        }
        guard spot.isFinite, spot >= 1 else {
            throw .invalidParameter(name: "anonymitySpot", value: "\(spot)", requirement: "must be a distance of at least 1 metre")
        }
        guard cap.isFinite, cap > 4 * spot, cap <= PrivacyMask.maximumDistance else {
            throw .invalidParameter(name: "anonymityCap", value: "\(cap)",
                                    requirement: "must be a distance above \(Int(4 * spot)) m and at most \(Int(PrivacyMask.maximumDistance)) m")
        }
        self.minimum = minimum
        self.cap = cap
        self.spot = spot
    }
}

extension PrivacyMask {
    /// This mask with `rule`: locations share displayed points in groups of at least
    /// `rule.minimum` (the annulus's offsets are then not used).
    public func requiring(_ rule: AnonymityRule) -> PrivacyMask {
        var m = self
        m.anonymity = rule
        return m
    }

    /// The public ring of a displayed point under the plain annulus: `minDistance...maxDistance`
    /// around it, with the census of the locations of `rings` in it.
    func publicRing(longitude: Double, latitude: Double, rings: RingCounter,
                    scratch: inout [SIMD2<Double>]) -> (radius: Double, census: RingCensus) {
        rings.members(longitude: longitude, latitude: latitude, inner: minDistance, outer: maxDistance, into: &scratch)
        return (maxDistance, RingCensus.of(&scratch, spot: AnonymityRule.defaultSpot))
    }

    /// A true position moved by (`east`, `north`) metres, converted at its latitude.
    static func move(longitude: Double, latitude: Double, east: Double, north: Double) -> (longitude: Double, latitude: Double) {
        let m = WebMercator.metresPerDegree(latitude: latitude)
        var lon = longitude + east / m.longitude
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return (lon, latitude + north / m.latitude)
    }
}
