/// Disjoint sets over `0..<count` with union by size and path halving: the one union-find of
/// the project (Kruskal single linkage, DBSCAN and grid merging use it).
///
/// - Complexity: `find` and `union` run in amortised O(α(n)).
public struct UnionFind: Sendable {
    @usableFromInline var parent: [Int32]
    @usableFromInline var size: [Int32]

    /// Creates `count` singleton sets.
    public init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
        size = [Int32](repeating: 1, count: count)
    }

    /// The representative of the set containing `x`.
    @inlinable
    public mutating func find(_ x: Int) -> Int {
        var x = Int32(truncatingIfNeeded: x)
        parent.withUnsafeMutableBufferPointer { p in
            while p[Int(x)] != x {
                // Path halving: point x at its grandparent, then step there.
                let g = p[Int(p[Int(x)])]
                p[Int(x)] = g
                x = g
            }
        }
        return Int(x)
    }

    /// Merges the sets of `a` and `b`; returns the new representative, or nil if they were
    /// already in one set.
    @inlinable
    @discardableResult
    public mutating func union(_ a: Int, _ b: Int) -> Int? {
        var ra = find(a)
        var rb = find(b)
        if ra == rb { return nil }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = Int32(ra)
        size[ra] += size[rb]
        return ra
    }

    /// The size of the set whose representative is `root`.
    @inlinable
    public func setSize(ofRoot root: Int) -> Int { Int(size[root]) }
}
