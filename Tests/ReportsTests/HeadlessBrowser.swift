import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs Debian's `chromium` headless on a local page: the DOM after load (`--dump-dom`) and a
/// screenshot. Each run gets its own profile folder, because parallel tests sharing chromium's
/// default profile make the second instance hand its work to the first and exit.
struct HeadlessBrowser {
    let executable: URL

    /// `chromium` (Debian's package name) or `chromium-browser` on PATH, or `$CHROMIUM`; nil
    /// when none is installed.
    static func find() -> HeadlessBrowser? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: path) {
            return HeadlessBrowser(executable: URL(fileURLWithPath: path))
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for folder in folders {
                let path = String(folder) + "/" + name
                if FileManager.default.isExecutableFile(atPath: path) { return HeadlessBrowser(executable: URL(fileURLWithPath: path)) }
            }
        }
        return nil
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The DOM of `page` after load, serialised.
    func dumpDOM(_ page: URL, width: Int, height: Int, scratch: URL) throws -> String {
        try run(["--dump-dom", page.absoluteString], width: width, height: height, scratch: scratch, tag: "dom")
    }

    /// A PNG screenshot of `page` in a `width` × `height` CSS-pixel window at scale 1.
    func screenshot(_ page: URL, to png: URL, width: Int, height: Int, scratch: URL) throws {
        _ = try run(["--screenshot=" + png.path, page.absoluteString], width: width, height: height, scratch: scratch, tag: "shot")
        guard FileManager.default.fileExists(atPath: png.path) else { throw Failure(description: "chromium wrote no screenshot at \(png.path)") }
    }

    /// Runs chromium with the common flags and returns its standard output. Output goes to
    /// files, not pipes, so a chatty browser cannot fill a pipe and stall.
    @discardableResult
    private func run(_ arguments: [String], width: Int, height: Int, scratch: URL, tag: String) throws -> String {
        let profile = scratch.appendingPathComponent("profile-" + tag)
        let stdout = scratch.appendingPathComponent(tag + ".out"), stderr = scratch.appendingPathComponent(tag + ".err")
        guard FileManager.default.createFile(atPath: stdout.path, contents: nil),
              FileManager.default.createFile(atPath: stderr.path, contents: nil)
        else { throw Failure(description: "cannot create chromium's output files in \(scratch.path)") }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                             "--no-first-run", "--force-device-scale-factor=1", "--user-data-dir=" + profile.path,
                             "--window-size=\(width),\(height)"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        let deadline = Date().addingTimeInterval(90)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "chromium did not finish within 90 s: \(arguments)")
        }
        let output = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let err = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            throw Failure(description: "chromium exited with \(process.terminationStatus): \(err.suffix(2000))")
        }
        return output
    }
}

/// A PNG decoder for chromium's screenshots (8-bit RGB or RGBA, not interlaced): Foundation
/// on Linux has none. The compressed data is inflated by the system's zlib, loaded with
/// dlopen because the test target links no C library; the row filters are undone here.
struct PNGImage {
    let width: Int
    let height: Int
    /// Bytes per pixel: 3 (RGB) or 4 (RGBA).
    let channels: Int
    let pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The pixel at (x, y) as (red, green, blue).
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let o = (y * width + x) * channels
        return (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
    }

    init(contentsOf url: URL) throws {
        let data = [UInt8](try Data(contentsOf: url))
        guard data.count > 8, data[0..<8].elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]) else {
            throw Failure(description: "\(url.path) is not a PNG file")
        }
        func be32(_ o: Int) -> Int { Int(data[o]) << 24 | Int(data[o + 1]) << 16 | Int(data[o + 2]) << 8 | Int(data[o + 3]) }
        var offset = 8
        var width = 0, height = 0, channels = 0
        var compressed = [UInt8]()
        while offset + 8 <= data.count {
            let length = be32(offset)
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = (offset + 8)..<(offset + 8 + length)
            guard body.upperBound <= data.count else { throw Failure(description: "truncated \(type) chunk") }
            switch type {
            case "IHDR":
                width = be32(body.lowerBound)
                height = be32(body.lowerBound + 4)
                let depth = data[body.lowerBound + 8], colour = data[body.lowerBound + 9], interlace = data[body.lowerBound + 12]
                guard depth == 8, colour == 2 || colour == 6, interlace == 0 else {
                    throw Failure(description: "unsupported PNG: bit depth \(depth), colour type \(colour), interlace \(interlace)")
                }
                channels = colour == 6 ? 4 : 3
            case "IDAT":
                compressed += data[body]
            default:
                break
            }
            offset = body.upperBound + 4   // the chunk's CRC
        }
        guard width > 0, height > 0 else { throw Failure(description: "no IHDR chunk") }
        let stride = width * channels
        let raw = try Self.inflate(compressed, expected: height * (stride + 1))
        var out = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            let src = y * (stride + 1) + 1, dst = y * stride
            for i in 0..<stride {
                let x = Int(raw[src + i])
                let a = i >= channels ? Int(out[dst + i - channels]) : 0
                let b = y > 0 ? Int(out[dst - stride + i]) : 0
                let c = (i >= channels && y > 0) ? Int(out[dst - stride + i - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Failure(description: "unknown PNG filter \(filter) in row \(y)")
                }
                out[dst + i] = UInt8(truncatingIfNeeded: x + predictor)
            }
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = out
    }

    private typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?,
                                                   UnsafePointer<UInt8>?, UInt) -> Int32

    /// zlib's `uncompress` on `data`, which must inflate to exactly `expected` bytes.
    private static func inflate(_ data: [UInt8], expected: Int) throws -> [UInt8] {
        var handle: UnsafeMutableRawPointer?
        for name in ["libz.so.1", "libz.so", "libz.dylib", "/usr/lib/libz.dylib"] {
            handle = dlopen(name, RTLD_NOW)
            if handle != nil { break }
        }
        guard let handle, let symbol = dlsym(handle, "uncompress") else {
            throw Failure(description: "zlib (libz.so.1) could not be loaded to decode the screenshot")
        }
        let uncompress = unsafeBitCast(symbol, to: Uncompress.self)
        var out = [UInt8](repeating: 0, count: expected)
        var length = UInt(expected)
        let status = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in uncompress(o.baseAddress, &length, i.baseAddress, UInt(i.count)) }
        }
        guard status == 0, Int(length) == expected else {
            throw Failure(description: "zlib uncompress failed (status \(status), \(length) of \(expected) bytes)")
        }
        return out
    }
}
