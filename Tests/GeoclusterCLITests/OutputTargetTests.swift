import Foundation
import Testing
import TestSupport

/// Output paths that are not regular files must be written in place: renaming the temporary
/// file over /dev/null once replaced the device with a regular file.
@Suite("Outputs to devices and FIFOs")
struct OutputTargetTests {
    /// A character device equal to /dev/null, made in the test's folder (root only), or nil.
    static func makeNullDevice(in folder: TemporaryFolder) -> String? {
        let path = folder.path("null")
        // makedev(1, 3), the device numbers of /dev/null (Glibc does not export the macro).
        let nullDevice = dev_t((1 << 8) | 3)
        return mknod(path, S_IFCHR | 0o666, nullDevice) == 0 ? path : nil
    }

    @Test("cluster and project write to a character device without replacing it")
    func device() throws {
        try withTemporaryFolder { folder throws in
            guard let device = Self.makeNullDevice(in: folder) else { return }  // not root: nothing to check
            let input = try folder.write(Blobs.planar(perBlob: 30).text, to: "in.csv")
            let r = try folder.run("cluster", input, "--min-cluster-size", "10", "--output", device, "--mst", device)
            #expect(r.status == 0, "\(r)")
            var info = stat()
            #expect(stat(device, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFCHR, "the device was replaced by a regular file")
            let seoul = try folder.write(Blobs.seoul(perBlob: 10).text, to: "seoul.csv")
            let p = try folder.run("project", seoul, "--crs", "EPSG:5179", "--output", device)
            #expect(p.status == 0, "\(p)")
            #expect(stat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
            // Nothing else (no temporary file) is left beside it.
            #expect(try folder.contents().sorted() == ["in.csv", "null", "seoul.csv"])
        }
    }

    @Test("a FIFO receives the labels")
    func fifo() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Blobs.planar(perBlob: 30).text, to: "in.csv")
            let fifo = folder.path("pipe")
            try #require(mkfifo(fifo, 0o644) == 0)
            // Read the FIFO on another thread while the command writes into it.
            nonisolated(unsafe) var received = Data()
            let reader = Thread {
                if let h = FileHandle(forReadingAtPath: fifo) { received = h.readDataToEndOfFile() }
            }
            reader.start()
            let r = try folder.run("cluster", input, "--min-cluster-size", "10", "--output", fifo)
            #expect(r.status == 0, "\(r)")
            while !reader.isFinished { usleep(1000) }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("id,label,probability,outlier_score\n"))
            #expect(text.split(separator: "\n").count == 91)
        }
    }

    @Test("a missing folder for any output is refused before anything is written")
    func missingFolderForASecondOutput() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Blobs.planar(perBlob: 30).text, to: "in.csv")
            let r = try folder.run("cluster", input, "--min-cluster-size", "10", "--output", folder.path("out.csv"),
                                   "--mst", folder.path("missing/mst.csv"))
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("missing/mst.csv"))
            #expect(try folder.contents() == ["in.csv"], "the labels were written although the MST could not be")
        }
    }
}
