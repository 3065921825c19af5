#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The kinds of listing the generator writes and the `--category` filter accepts, in the
/// `category` column's spelling.
public enum ListingCategory: String, CaseIterable, Sendable, Comparable {
    /// A unit in an apartment complex (아파트).
    case apartment
    /// A studio in an officetel block (오피스텔), mostly along main roads.
    case officetel
    /// A unit in a low-rise multi-family house (빌라, 다세대).
    case villa
    /// A studio (원룸).
    case oneRoom = "one-room"
    /// A two-room flat (투룸).
    case twoRoom = "two-room"
    /// A shop or office space (상가).
    case store

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The names, comma-separated, for messages and help.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
