import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test("writes the file, replaces an existing one, and leaves no temporary file behind")
    func writes() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.path("out.csv")
            try AtomicFile.write("id,label\n1,0\n", to: path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "id,label\n1,0\n")
            try AtomicFile.write(Data("강남구\n".utf8), to: path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "강남구\n")
            #expect(try folder.contents() == ["out.csv"])
        }
    }

    @Test("a path with a \".\" component writes into the folder it names")
    func relativePath() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.url.path + "/./rel.csv"
            try AtomicFile.write("x\n", to: path)
            #expect(try folder.contents() == ["rel.csv"])
        }
    }

    @Test("writing into a missing folder throws .outputFolderMissing and creates nothing")
    func missingFolder() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.path("missing/deeper/out.csv")
            #expect(throws: DatasetError.outputFolderMissing(path: path)) { try AtomicFile.write("x\n", to: path) }
            #expect(try folder.contents().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.path("missing")))
        }
    }

    @Test("a regular file where the folder should be is .outputFolderMissing too")
    func fileAsFolder() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("not a folder", to: "file")
            let path = folder.path("file/out.csv")
            #expect(throws: DatasetError.outputFolderMissing(path: path)) { try AtomicFile.write("x\n", to: path) }
            #expect(try folder.contents() == ["file"])
        }
    }

    @Test("a failed rename (the destination is a folder) throws .writeFailed and cleans up its temporary file")
    func failedRename() throws {
        try withTemporaryFolder { folder throws in
            let path = folder.path("taken")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            do {
                try AtomicFile.write("x\n", to: path)
                Issue.record("expected .writeFailed")
            } catch {
                guard case let .writeFailed(p, reason)? = error as? DatasetError else {
                    Issue.record("expected .writeFailed, got \(error)")
                    return
                }
                #expect(p == path)
                #expect(!reason.isEmpty)
            }
            #expect(try folder.contents() == ["taken"])
        }
    }
}
