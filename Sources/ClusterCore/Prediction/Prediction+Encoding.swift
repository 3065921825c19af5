// A prediction model as bytes, for a model file: what the model is made of (`Parts`), in
// little-endian order; loading checks every count and index before building the model, so
// damaged bytes are an error, never a crash. The file around them (version, checksum) is the
// caller's.

extension PredictionModel {
    /// The model as bytes (`init(encoded:threads:)` reads them back). The index is not in
    /// them: loading rebuilds it.
    /// - Complexity: O(n + clusters).
    public func encoded() -> [UInt8] {
        let p = parts
        var out = ByteWriter()
        let sites = p.sites
        for count in [p.minSamples, sites.siteOfRow.count, sites.points.count, p.parent.count, p.selected.count,
                      isOnSphere ? 1 : 0] {
            out.append([UInt64(count)])
        }
        out.append(sites.siteOfRow); out.append(sites.points.xs); out.append(sites.points.ys); out.append(p.core)
        out.append(p.fallCluster); out.append(p.fallLambda)
        out.append(p.parent); out.append(p.birth); out.append(p.selected)
        return out.bytes
    }

    /// The model `encoded()` wrote.
    /// - Throws: `.invalidParameter` (name `model`) when the bytes are not a whole, consistent
    ///   model.
    /// - Complexity: O(n log n): the index is rebuilt.
    public init(encoded bytes: [UInt8], threads: Int = 1) throws(ClusterCoreError) {
        var input = ByteReader(bytes)
        let counts = try (0..<6).map { _ throws(ClusterCoreError) in try input.count() }
        let (m, n, sites, c, s) = (counts[0], counts[1], counts[2], counts[3], counts[4])
        guard counts[5] <= 1 else { throw Self.damaged("space \(counts[5])") }
        let siteOfRow = try input.int32s(n)
        let points = try PointSet(xs: try input.doubles(sites), ys: try input.doubles(sites))
        try Self.checkSites(siteOfRow, count: sites)
        let parts = Parts(minSamples: m, sites: Sites(points: points, siteOfRow: siteOfRow), core: try input.doubles(sites),
                          fallCluster: try input.int32s(sites), fallLambda: try input.doubles(sites),
                          parent: try input.int32s(c), birth: try input.doubles(c), selected: try input.int32s(s))
        guard input.atEnd else { throw Self.damaged("\(bytes.count - input.offset) bytes after the model") }
        try Self.check(parts)
        if counts[5] == 1 {
            do throws(ClusterCoreError) {
                self.init(parts, index: .sphere(try SphereSites(points, threads: threads)))
            } catch {
                throw Self.damaged("a site beyond the poles")
            }
        } else {
            self.init(parts, index: .plane(KDTree(points: points, threads: threads)))
        }
    }

    /// Refuses a row at no site, or a site without rows.
    private static func checkSites(_ siteOfRow: [Int32], count: Int) throws(ClusterCoreError) {
        var held = [Bool](repeating: false, count: count)
        for site in siteOfRow {
            guard (0..<Int32(count)).contains(site) else { throw damaged("a row's site \(site)") }
            held[Int(site)] = true
        }
        guard !held.contains(false) else { throw damaged("a site without points") }
    }

    /// Refuses parts whose indices point outside their arrays or whose tree is not a tree.
    private static func check(_ p: Parts) throws(ClusterCoreError) {
        let c = p.parent.count
        guard p.minSamples >= 1 else { throw damaged("min_samples \(p.minSamples)") }
        guard c >= 1 || p.sites.points.count == 0, c == 0 || p.parent[0] == -1 else { throw damaged("no root cluster") }
        for k in 1..<max(c, 1) where !(0..<Int32(k)).contains(p.parent[k]) { throw damaged("cluster \(k)'s parent") }
        for k in p.fallCluster where !(0..<Int32(c)).contains(k) { throw damaged("a point's cluster \(k)") }
        for (i, k) in p.selected.enumerated() where !(0..<Int32(c)).contains(k) || (i > 0 && p.selected[i - 1] >= k) {
            throw damaged("selected cluster \(k)")
        }
        if (p.core + p.fallLambda + p.birth).contains(where: { $0.isNaN || $0 < 0 }) { throw damaged("a negative or NaN distance") }
    }

    private static func damaged(_ what: String) -> ClusterCoreError {
        .invalidParameter(name: "model", value: what, requirement: "must be a whole model as PredictionModel.encoded() writes it")
    }
}

/// Appends arrays of fixed-size values as their little-endian bytes.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append<T: BitwiseCopyable>(_ values: [T]) {
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
}

/// Reads back what `ByteWriter` wrote, refusing to read past the end.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    mutating func values<T: BitwiseCopyable>(_ count: Int, of type: T.Type) throws(ClusterCoreError) -> [T] {
        let size = MemoryLayout<T>.stride
        guard count >= 0, count <= (bytes.count - offset) / size else {
            throw .invalidParameter(name: "model", value: "\(bytes.count) bytes", requirement: "is cut short: must be a whole model")
        }
        let result = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count * size)]))
            }
            initialized = count
        }
        offset += count * size
        return result
    }

    mutating func count() throws(ClusterCoreError) -> Int {
        let value = try values(1, of: UInt64.self)[0]
        guard value <= UInt64(Int32.max) else {
            throw .invalidParameter(name: "model", value: "a count of \(value)", requirement: "must be a whole model")
        }
        return Int(value)
    }

    mutating func doubles(_ count: Int) throws(ClusterCoreError) -> [Double] { try values(count, of: Double.self) }
    mutating func int32s(_ count: Int) throws(ClusterCoreError) -> [Int32] { try values(count, of: Int32.self) }
}
