import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Datasets
import Geo
import Harness
import ClusterMetrics

/// Prints `message` as the command's error and exits with status 1 (a runtime failure, as
/// opposed to a usage mistake, which ArgumentParser reports with status 64).
public func fail(_ message: CustomStringConvertible) -> ExitCode {
    note("geocluster: error: \(message)")
    return ExitCode(1)
}

/// Runs a command's work and turns the errors of the libraries it calls into the command's
/// error message and exit status 1 (``fail(_:)``): a `HarnessError`, `DatasetError` or
/// `MetricsError` as it is (it names its file or option), a `GeoError` after `input`, the file
/// whose points it concerns. Anything else (the `ExitCode` of an earlier `fail`, a usage
/// mistake) passes through unchanged. Every command's errors go through here.
public func reportingErrors<R>(input: String? = nil, _ body: () throws -> R) throws -> R {
    do {
        return try body()
    } catch let e as HarnessError {
        throw fail(e)
    } catch let e as DatasetError {
        throw fail(e)
    } catch let e as MetricsError {
        throw fail(e)
    } catch let e as GeoError {
        throw fail(input.map { "\($0): \(e)" } ?? "\(e)")
    }
}

/// Writes a line to standard error (unbuffered: straight to file descriptor 2).
public func note(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Runs an option parser, turning its `DatasetError` into the `ValidationError` that
/// ArgumentParser reports as a usage mistake (exit 64) after "The value '…' is invalid for
/// '--option …':".
public func usage<T>(_ body: () throws(DatasetError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        if case let .invalidOption(_, _, reason) = error { throw ValidationError(reason) }
        throw ValidationError(error.description)
    }
}
