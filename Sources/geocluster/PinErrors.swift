import ArgumentParser
import CommandLineSupport

/// Turns a Pins or Reports error into the command's error (exit 1), like `reportingErrors`
/// does for the other libraries' errors. Pins' messages never repeat a true coordinate.
func reportingPinErrors<R>(input: String, _ body: () throws -> R) throws -> R {
    try reportingErrors(input: input) {
        do {
            return try body()
        } catch let e as PinError {
            switch e {
            case .invalidCoordinate, .duplicateListingID: throw fail("\(input): \(e)")
            default: throw fail(e)
            }
        } catch let e as ReportsError {
            throw fail(e)
        }
    }
}
