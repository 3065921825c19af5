import ArgumentParser
import CommandLineSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geocluster serve`: runs the `geocluster-serve` executable beside this one with the same
/// arguments (it replaces this process). The server is a program of its own so that the other
/// commands link no HTTP stack and start as fast as before; `geocluster serve --help` is its help.
struct ServeLauncher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a listing file's map pins over HTTP (vector tiles, GeoJSON, a browser map); --help lists its options.",
        shouldDisplay: true
    )

    @Argument(parsing: .captureForPassthrough, help: "The server's arguments (geocluster serve --help).")
    var arguments: [String] = []

    /// The server's executable: `geocluster-serve` in this executable's folder.
    static var serverPath: String {
        let own = GeoclusterExecutable.path()
        let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/geocluster-serve"
    }

    func run() throws {
        let path = Self.serverPath
        guard access(path, X_OK) == 0 else {
            throw fail("\(path) is missing: build it with `swift build -c release --product geocluster-serve` (or `make serve`)")
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        throw fail("cannot run \(path): \(String(cString: strerror(errno)))")
    }
}
