/// Disjoint sets over `0..<count` with union by size and path halving: the one union-find of
/// the project (Kruskal single linkage, DBSCAN and grid merging use it).
///
/// Each element's parent and set size sit side by side in one array, so a step of `find`
/// touches one cache line, not two (Kruskal over a million random edges is bound by those
/// misses). `withRawAccess` gives hot loops the same operations without the array's
/// uniqueness check on every call.
///
/// - Complexity: `find` and `union` run in amortised O(α(n)).
public struct UnionFind: Sendable {
    /// `[parent(0), size(0), parent(1), size(1), ...]`; a size is only meaningful at a root.
    @usableFromInline var storage: [Int32]

    /// Creates `count` singleton sets. (Inlined so that its loop is compiled in the caller,
    /// where the optimizer vectorises it.)
    @inline(__always)
    public init(count: Int) {
        storage = [Int32](unsafeUninitializedCapacity: 2 * count) { b, c in
            for i in 0..<count { b[2 * i] = Int32(i); b[2 * i + 1] = 1 }
            c = 2 * count
        }
    }

    /// The representative of the set containing `x`.
    @inlinable
    public mutating func find(_ x: Int) -> Int {
        withRawAccess { $0.find(x) }
    }

    /// Merges the sets of `a` and `b`; returns the new representative, or nil if they were
    /// already in one set.
    @inlinable
    @discardableResult
    public mutating func union(_ a: Int, _ b: Int) -> Int? {
        withRawAccess { $0.union(a, b) }
    }

    /// The size of the set whose representative is `root`.
    @inlinable
    public func setSize(ofRoot root: Int) -> Int { Int(storage[2 * root + 1]) }

    /// Runs `body` with direct access to the sets, valid only inside `body`. `package`: an
    /// unsafe view for this package's hot loops, not for apps.
    @inlinable
    package mutating func withRawAccess<R>(_ body: (RawUnionFind) -> R) -> R {
        storage.withUnsafeMutableBufferPointer { body(RawUnionFind(base: $0.baseAddress ?? UnsafeMutablePointer(bitPattern: 8)!)) }
    }
}

/// The operations of `UnionFind` over its storage, for hot loops (see `withRawAccess`).
@usableFromInline
package struct RawUnionFind {
    @usableFromInline let base: UnsafeMutablePointer<Int32>
    @usableFromInline init(base: UnsafeMutablePointer<Int32>) { self.base = base }

    /// The representative of the set containing `x` (halving the path on the way).
    @inlinable @inline(__always)
    package func find(_ x: Int) -> Int {
        var x = x
        while Int(base[2 * x]) != x {
            // Path halving: point x at its grandparent, then step there.
            let g = base[2 * Int(base[2 * x])]
            base[2 * x] = g
            x = Int(g)
        }
        return x
    }

    /// The size of the set whose representative is `root`.
    @inlinable @inline(__always)
    package func setSize(ofRoot root: Int) -> Int { Int(base[2 * root + 1]) }

    /// Merges the sets with representatives `ra` and `rb` (distinct); returns the new one.
    @inlinable @inline(__always)
    package func unionRoots(_ ra: Int, _ rb: Int) -> Int {
        var ra = ra, rb = rb
        if base[2 * ra + 1] < base[2 * rb + 1] { swap(&ra, &rb) }
        base[2 * rb] = Int32(ra)
        base[2 * ra + 1] += base[2 * rb + 1]
        return ra
    }

    /// Merges the sets of `a` and `b`; returns the new representative, or nil if they were
    /// already in one set.
    @inlinable @inline(__always) @discardableResult
    package func union(_ a: Int, _ b: Int) -> Int? {
        let ra = find(a), rb = find(b)
        if ra == rb { return nil }
        return unionRoots(ra, rb)
    }
}
