#if canImport(Glibc)
import Glibc  // remainder, floor, ceil (FoundationEssentials does not re-export them)
#endif
import CGeoLibraries

/// Longitude/latitude geometries that cross ±180°, written the way RFC 7946 §3.1.9 asks:
/// cut at the antimeridian into parts that meet there exactly, so no edge spans more than
/// 180° of longitude.
///
/// The input is a geometry just unprojected from a plane local to it (a hull computed in a
/// projection centred on its cluster): its edges are short and its longitudes are each in
/// [-180, 180], so an edge that crosses the line jumps by almost 360°. ``continuous(_:around:pole:)``
/// removes the jumps; ``split(_:)`` cuts the continuous geometry at every meridian
/// 180° + k·360° and moves each part by whole turns into [-180, 180].
enum Antimeridian {
    /// `ring` with each longitude moved by whole turns so that consecutive vertices differ by
    /// at most 180° and the first is within 180° of `reference`. Each output longitude is the
    /// input plus a multiple of 360°, so a closed ring stays closed unless it winds around a
    /// pole (then its last vertex ends a whole turn from its first).
    /// - Complexity: O(ring.count).
    static func unwrapped(_ ring: Coordinates, around reference: Double) -> Coordinates {
        var x = ring.x
        var previous = reference
        for i in x.indices {
            let turns = ((previous - ring.x[i]) / 360).rounded()
            x[i] = ring.x[i] + 360 * turns
            previous = x[i]
        }
        return Coordinates(x: x, y: ring.y)
    }

    /// `ring` (continuous longitudes) with a vertex added wherever an edge crosses a meridian
    /// 180° + k·360°, exactly on that meridian, at the latitude where the edge taken as a
    /// geodesic crosses it: cutting there leaves every part's geodesic area unchanged.
    /// - Complexity: O(ring.count) plus a fixed number of geodesic evaluations per crossing.
    static func withCrossings(_ ring: Coordinates) throws(GeoError) -> Coordinates {
        guard ring.count > 1 else { return ring }
        var out = Coordinates(x: [ring.x[0]], y: [ring.y[0]])
        for i in 1..<ring.count {
            let (x0, y0, x1, y1) = (ring.x[i - 1], ring.y[i - 1], ring.x[i], ring.y[i])
            let lo = min(x0, x1), hi = max(x0, x1)
            let meridian = 180 + 360 * ((lo - 180) / 360).rounded(.up)
            if meridian > lo && meridian < hi {
                out.x.append(meridian)
                out.y.append(try crossingLatitude(lon1: x0, lat1: y0, lon2: x1, lat2: y1, meridian: meridian))
            }
            out.x.append(x1)
            out.y.append(y1)
        }
        return out
    }

    /// The latitude at which the geodesic from (lon1, lat1) to (lon2, lat2) (degrees,
    /// continuous, less than 180° apart) reaches longitude `meridian`, strictly between them.
    /// Longitude is monotonic along a geodesic (Clairaut), so bisection on the distance finds it.
    static func crossingLatitude(lon1: Double, lat1: Double, lon2: Double, lat2: Double,
                                 meridian: Double) throws(GeoError) -> Double {
        var g = try Geodesic.wgs84()
        var line = geod_geodesicline()
        let caps = UInt32(GEOD_LATITUDE.rawValue | GEOD_LONGITUDE.rawValue | GEOD_DISTANCE_IN.rawValue)
        PROJ.geod_inverseline(&line, &g, lat1, lon1, lat2, lon2, caps)
        let eastward = lon2 > lon1
        var (a, b) = (0.0, line.s13)
        var lat = (lat1 + lat2) / 2
        // 64 halvings take the interval below one unit in the last place of any edge length.
        for _ in 0..<64 {
            let s = (a + b) / 2
            var (φ, λ) = (0.0, 0.0)
            _ = PROJ.geod_genposition(&line, UInt32(GEOD_LONG_UNROLL.rawValue), s, &φ, &λ, nil, nil, nil, nil, nil, nil)
            lat = φ
            if (λ < meridian) == eastward { a = s } else { b = s }
        }
        return lat
    }

    /// The rings of one polygon made continuous: each ring unwrapped around `reference`, and an
    /// exterior ring that winds around a pole (its longitudes span a whole turn) closed over
    /// that pole, so that in longitude/latitude it encloses the cap it does on the globe.
    /// - Parameter pole: +90 or -90, the pole on the polygon's side of the equator.
    static func continuous(_ rings: [Coordinates], around reference: Double, pole: Double) -> [Coordinates] {
        rings.enumerated().map { k, ring in
            var r = unwrapped(ring, around: reference)
            let n = r.count
            if k == 0, n > 1, r.x[n - 1] != r.x[0] {
                // Along the pole in steps of at most 90°, so no edge spans more than 180° once cut.
                let (from, to) = (r.x[n - 1], r.x[0])
                let steps = Int((abs(to - from) / 90).rounded(.up))
                for s in 0...steps {
                    r.x.append(s == steps ? to : from + (to - from) * Double(s) / Double(steps))
                    r.y.append(pole)
                }
                r.x.append(to)
                r.y.append(r.y[0])
            }
            return r
        }
    }

    /// The longitude windows [-180 + 360k, 180 + 360k] that `lo...hi` overlaps with positive
    /// width, as the values of k.
    static func windows(lo: Double, hi: Double) -> ClosedRange<Int> {
        let first = Int(((lo + 180) / 360).rounded(.down)), last = Int(((hi - 180) / 360).rounded(.up))
        return first...max(first, last)
    }

    /// The western and eastern edges in [-180, 180] of continuous longitudes `lo...hi`: west
    /// greater than east when the span crosses ±180° (RFC 7946 §5.2), the whole range when it
    /// covers a turn or more.
    static func lonBounds(lo: Double, hi: Double) -> (west: Double, east: Double) {
        if hi - lo >= 360 { return (-180, 180) }
        let k = windows(lo: lo, hi: hi).lowerBound
        let west = lo - 360 * Double(k), east = hi - 360 * Double(k)
        return east > 180 ? (west, east - 360) : (west, east)
    }
}

extension Coordinates {
    /// The same vertices moved `turns` whole turns west (x − 360·turns).
    func shifted(turns k: Int) -> Coordinates {
        k == 0 ? self : Coordinates(x: x.map { $0 - 360 * Double(k) }, y: y)
    }
}

extension GeometryContext {
    /// A continuous longitude/latitude polygonal geometry cut at every meridian 180° + k·360°
    /// and moved by whole turns into [-180, 180]: a Polygon when it lies in one window, else a
    /// MultiPolygon whose parts meet at ±180° exactly.
    /// - Complexity: one GEOS overlay per window the geometry straddles; none when it lies
    ///   within [-180, 180].
    func splitAtAntimeridian(polygons: [[Coordinates]]) throws(GeoError) -> Geometry {
        let all = polygons.flatMap { $0 }
        let lo = all.map { $0.x.min() ?? 0 }.min() ?? 0, hi = all.map { $0.x.max() ?? 0 }.max() ?? 0
        let windows = Antimeridian.windows(lo: lo, hi: hi)
        if windows.count == 1 {
            let k = windows.lowerBound
            let moved = polygons.map { $0.map { $0.shifted(turns: k) } }
            return moved.count == 1 ? try polygon(exterior: moved[0][0], holes: Array(moved[0].dropFirst()))
                : try multiPolygon(moved)
        }
        let whole = try multiPolygon(polygons)
        var pieces: [[Coordinates]] = []
        for k in windows {
            let part = try whole.intersection(try window(k))
            pieces += try part.polygonalParts().map { $0.map { $0.shifted(turns: k) } }
        }
        return pieces.count == 1 ? try polygon(exterior: pieces[0][0], holes: Array(pieces[0].dropFirst()))
            : try multiPolygon(pieces)
    }

    /// A continuous longitude/latitude line cut as ``splitAtAntimeridian(polygons:)`` cuts
    /// polygons: a LineString, or a MultiLineString whose parts meet at ±180°.
    func splitAtAntimeridian(line: Coordinates) throws(GeoError) -> Geometry {
        let windows = Antimeridian.windows(lo: line.x.min() ?? 0, hi: line.x.max() ?? 0)
        if windows.count == 1 { return try lineString(x: line.shifted(turns: windows.lowerBound).x, y: line.y) }
        let whole = try lineString(x: line.x, y: line.y)
        var pieces: [Coordinates] = []
        for k in windows {
            pieces += try whole.intersection(try window(k)).lines().map { $0.shifted(turns: k) }
        }
        return pieces.count == 1 ? try lineString(x: pieces[0].x, y: pieces[0].y) : try multiLineString(pieces)
    }

    /// The rectangle of longitudes [-180 + 360k, 180 + 360k], every latitude.
    private func window(_ k: Int) throws(GeoError) -> Geometry {
        let w = -180 + 360 * Double(k), e = 180 + 360 * Double(k)
        return try polygon(exterior: Coordinates(x: [w, e, e, w, w], y: [-90, -90, 90, 90, -90]))
    }
}
