#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ListingVocabulary

extension ValueRange {
    /// Parses `MIN..MAX` with either end optional (`..50`, `100..`), both ends included.
    /// - Parameter option: the option's name, for messages (e.g. `--area`).
    /// - Throws: `.invalidOption` for a missing `..`, a non-numeric or non-finite end, no
    ///   end at all, or an inverted range (min > max).
    public static func parse(_ text: String, option: String) throws(DatasetError) -> ValueRange {
        do { return try ValueRange(parsing: text) } catch { throw .invalidOption(option: option, value: error.value, reason: error.reason) }
    }

}

extension BoundingBox {
    /// Parses `minLon,minLat,maxLon,maxLat` (degrees, the GeoJSON `bbox` order, RFC 7946
    /// §5.2): west, south, east, north. West greater than east is a box across the
    /// antimeridian (`170,-25,-170,-10` spans 20° of longitude around ±180°), which
    /// ``contains(longitude:latitude:)`` and every query treat as such.
    /// - Throws: `.invalidOption` unless there are four finite numbers, longitudes within
    ///   ±180, latitudes within ±90, and minLat ≤ maxLat.
    public static func parse(_ text: String, option: String = "--bbox") throws(DatasetError) -> BoundingBox {
        do { return try BoundingBox(parsing: text) } catch { throw .invalidOption(option: option, value: error.value, reason: error.reason) }
    }
}

/// Which listings to keep: every condition given must hold (an unset one keeps everything).
///
/// Attribute conditions read the columns (CSV) or properties (GeoJSON) `category`,
/// `area_m2` (or `area`), `deposit` and `monthly_rent` (or `rent`); spatial ones the
/// point's latitude and longitude in degrees, whatever coordinate columns are clustered.
/// A category matches case-insensitively, spaces around it ignored; a value outside the
/// known categories matches none. Numeric conditions need a number in every row (an empty
/// field is an error naming its line, like any non-number).
///
/// Not `Sendable`: a `--within` region holds GEOS geometries bound to one thread.
public struct ListingFilter {
    /// Category, floor area (m²), deposit and monthly rent (both in units of 10,000 KRW;
    /// rent 0 for jeonse).
    public var attributes: AttributeFilter
    /// Longitude/latitude box in degrees.
    public var bbox: BoundingBox?
    /// Polygons the point must lie in or on (`--within`).
    public var region: Region?

    /// A filter of the conditions given; with none it keeps everything.
    public init(attributes: AttributeFilter = AttributeFilter(), bbox: BoundingBox? = nil, region: Region? = nil) {
        self.attributes = attributes
        self.bbox = bbox
        self.region = region
    }

    /// Column names accepted for each attribute, in order of preference.
    public static let categoryNames = ["category"]
    public static let areaNames = ["area_m2", "area"]
    public static let depositNames = ["deposit"]
    public static let rentNames = ["monthly_rent", "rent"]

    /// Whether no condition is set.
    public var isEmpty: Bool { attributes.isEmpty && bbox == nil && region == nil }

    /// Whether latitude and longitude are needed.
    public var needsLonLat: Bool { bbox != nil || region != nil }

    /// Parses a comma-separated category list such as `apartment,officetel`.
    /// - Throws: `.invalidOption` naming an unknown category and listing the known ones.
    public static func parseCategories(_ text: String, option: String = "--category") throws(DatasetError) -> CategorySet {
        do { return try CategorySet(parsing: text) } catch { throw .invalidOption(option: option, value: error.value, reason: error.reason) }
    }

    /// The UTF-8 names of the kept categories, for matching fields without making strings.
    var categoryBytes: [[UInt8]] {
        (attributes.categories?.categories ?? []).map { Array($0.rawValue.utf8) }
    }

    /// Whether a category field (raw bytes) names one of `names`: spaces trimmed, ASCII
    /// letters compared case-insensitively.
    @inline(__always)
    static func categoryMatches(_ field: UnsafeBufferPointer<UInt8>, _ names: [[UInt8]]) -> Bool {
        var lo = 0, hi = field.count
        while lo < hi && field[lo] == 0x20 { lo += 1 }
        while hi > lo && field[hi - 1] == 0x20 { hi -= 1 }
        outer: for name in names where name.count == hi - lo {
            for k in 0..<name.count {
                var b = field[lo + k]
                if b >= 0x41 && b <= 0x5A { b += 0x20 }
                if b != name[k] { continue outer }
            }
            return true
        }
        return false
    }
}

extension PropertyCondition {
    /// Whether a file's field passes: a range when the field parses as a number in it (with
    /// the file's decimal mark), a set when the field is one of its texts; an empty field (a
    /// missing value) never does.
    func holds(_ field: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Bool {
        guard !field.isEmpty else { return false }
        switch test {
        case .range(let r): return parseDouble(field, decimalComma: decimalComma).map(r.contains) ?? false
        case .oneOf(let texts): return texts.contains(String(decoding: field, as: UTF8.self))
        }
    }
}

extension PropertyCondition {
    /// Parses a condition on one of the user's own columns: `NAME=MIN..MAX` (numbers, either
    /// end open) is a range, any other `NAME=a,b` a set of texts.
    /// - Parameter option: the option or parameter's name, for messages (`--where`).
    /// - Throws: `.invalidOption` without a name before `=` or values after it.
    public static func parse(_ text: String, option: String = "--where") throws(DatasetError) -> PropertyCondition {
        do { return try PropertyCondition(parsing: text) } catch { throw .invalidOption(option: option, value: error.value, reason: error.reason) }
    }
}
