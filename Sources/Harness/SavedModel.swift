import ClusterCore
import Datasets

/// A fitted HDBSCAN's prediction model in a file (`geocluster cluster --save-model`), and the
/// projection its points were fitted in (none for a fit on the sphere, which the model itself
/// records), so that `geocluster predict` places new points the same way.
///
/// File layout: the 8 bytes `GCMODEL\n`; the format version (UInt32); the CRS's length
/// (UInt32, 0 for planar x,y input) and its UTF-8 bytes; the model's length (UInt64) and its
/// bytes (`PredictionModel.encoded()`); the SHA-256 of everything before it. Numbers are
/// little-endian. A file of another version, or whose checksum does not match, is refused.
public struct SavedModel: Sendable {
    /// The model.
    public var model: PredictionModel
    /// The CRS the fitted longitude/latitude were projected to; nil for planar x,y input and
    /// for a fit on the sphere.
    public var projectedCRS: String?

    /// The format version this geocluster writes and reads.
    public static let version: UInt32 = 2
    static let magic = Array("GCMODEL\n".utf8)

    /// A model and the CRS its points were projected to (nil: planar x,y input).
    public init(model: PredictionModel, projectedCRS: String?) {
        self.model = model
        self.projectedCRS = projectedCRS
    }

    /// Writes the file, whole or not at all.
    public func write(to path: String) throws(HarnessError) {
        var bytes = Self.magic
        append(Self.version, to: &bytes)
        let crs = Array((projectedCRS ?? "").utf8)
        append(UInt32(crs.count), to: &bytes)
        bytes += crs
        let payload = model.encoded()
        append(UInt64(payload.count), to: &bytes)
        bytes += payload
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        bytes += hasher.finalize()
        do throws(DatasetError) {
            try AtomicFile.write(bytes: bytes, to: path)
        } catch {
            throw .dataset(error)
        }
    }

    /// Reads a file `write(to:)` wrote.
    /// - Throws: `.dataset` when it cannot be read; `.model` when it is not a model file, is
    ///   of another version, or is damaged.
    public static func read(path: String, threads: Int = 1) throws(HarnessError) -> SavedModel {
        let bytes: [UInt8]
        do throws(DatasetError) {
            bytes = try BinaryFile.read(path: path)
        } catch {
            throw .dataset(error)
        }
        let body = try checkedBody(bytes, path: path)
        var offset = magic.count + 4
        let crsLength = Int(number(UInt32.self, body, &offset))
        guard crsLength <= body.count - offset - 8 else { throw damaged(path) }
        let crs = String(decoding: body[offset..<(offset + crsLength)], as: UTF8.self)
        offset += crsLength
        let payloadLength = number(UInt64.self, body, &offset)
        guard payloadLength == UInt64(body.count - offset) else { throw damaged(path) }
        do throws(ClusterCoreError) {
            let model = try PredictionModel(encoded: Array(body[offset...]), threads: threads)
            return SavedModel(model: model, projectedCRS: crs.isEmpty ? nil : crs)
        } catch {
            throw .model(path: path, reason: "is damaged: \(error)")
        }
    }

    /// The bytes before the checksum, once the magic, the version and the checksum are right.
    private static func checkedBody(_ bytes: [UInt8], path: String) throws(HarnessError) -> ArraySlice<UInt8> {
        guard bytes.starts(with: magic) else {
            throw .model(path: path, reason: "is not a geocluster model file (write one with geocluster cluster --save-model)")
        }
        guard bytes.count >= magic.count + 4 + 4 + 8 + 32 else { throw damaged(path) }
        var offset = magic.count
        let version = number(UInt32.self, bytes[...], &offset)
        guard version == Self.version else {
            throw .model(path: path, reason: "is a model of format version \(version); this geocluster reads version "
                         + "\(Self.version): fit it again with geocluster cluster --save-model")
        }
        let body = bytes[..<(bytes.count - 32)]
        var hasher = SHA256Hasher()
        hasher.update(body)
        guard hasher.finalize() == Array(bytes[(bytes.count - 32)...]) else { throw damaged(path) }
        return body
    }

    private static func damaged(_ path: String) -> HarnessError {
        .model(path: path, reason: "is damaged: its checksum or its lengths do not match (changed or cut short); fit it again with geocluster cluster --save-model")
    }

    private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func number<T: FixedWidthInteger>(_: T.Type, _ bytes: ArraySlice<UInt8>, _ offset: inout Int) -> T {
        var value: T = 0
        for i in 0..<MemoryLayout<T>.size { value |= T(bytes[bytes.startIndex + offset + i]) << (8 * i) }
        offset += MemoryLayout<T>.size
        return value
    }
}
