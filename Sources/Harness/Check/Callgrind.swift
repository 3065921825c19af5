#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Instruction and allocation counts per stage, from one run of a `bench-cell` under
/// `valgrind --tool=callgrind`. Counts do not depend on the machine's load or speed: the same
/// binary on the same input gives the same numbers within a few thousand instructions (the
/// environment and file names), which is what lets the gate hold them to 1 %.
///
/// The run is split at each call of `geoclusterStageMark()` (the stage clock calls it when a
/// stage starts and when it ends) with `--dump-before`: dump 2k + 2 holds stage k's costs.
enum Callgrind {
    /// The allocator entry points whose calls count as allocations.
    static let allocators: Set<String> = ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"]

    static func count(_ c: CheckSuite.Case, binary: String, valgrind: String,
                      options: CheckOptions) throws(HarnessError) -> [StageCounts] {
        let dataset = try c.dataset(cache: options.cache)
        let folder = options.work + "/callgrind-" + Fingerprint.text(c.name)
        try? FileManager.default.removeItem(atPath: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .bench("\(folder): cannot create the counts lane's folder (\(error))")
        }
        let out = folder + "/callgrind.out"
        let outcome = CellProcess.run(
            executable: valgrind,
            arguments: ["--tool=callgrind", "--callgrind-out-file=\(out)", "--dump-before=geocluster_stage_mark",
                        "--compress-strings=no", "--compress-pos=no",
                        binary, "bench-cell"] + c.cellArguments(dataset) + [
                        "--threads", "1", "--labels", folder + "/labels.csv", "--record", folder + "/record.json"],
            timeout: 900, stdoutPath: folder + "/stdout.txt", stderrPath: folder + "/stderr.txt",
            // Swift seeds its hash function per process unless told not to; dictionaries would
            // then do a different amount of work each run.
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
        guard outcome.exit == .exited(0) else {
            throw .bench("callgrind run of \(c.name) failed (\(outcome.exit)): \(outcome.stderrTail)")
        }
        let record = try CellRecord.read(path: folder + "/record.json")
        guard let stages = record.stageOrder else {
            throw .bench("\(binary): its record has no stage order; the counts lane needs this geocluster's own binary")
        }
        var rows: [StageCounts] = []
        for (k, stage) in stages.enumerated() {
            let dump = "\(out).\(2 * k + 2)"
            guard let text = try? String(contentsOfFile: dump, encoding: .utf8) else {
                throw .bench("\(dump): callgrind wrote no dump for stage \(stage); is geocluster_stage_mark in the binary's symbols?")
            }
            let (instructions, allocations) = parse(text)
            rows.append(StageCounts(name: c.name, stage: stage, instructions: instructions, allocations: allocations))
        }
        return rows
    }

    /// The instruction total (the `summary:` line, else `totals:`) and the calls to the
    /// allocators in one callgrind dump written with `--compress-strings=no`.
    static func parse(_ text: String) -> (instructions: Int, allocations: Int) {
        var instructions = 0, allocations = 0, haveSummary = false
        var calleeIsAllocator = false
        // Compressed names: `(id) name` the first time, `(id)` after; fn= and cfn= share ids.
        var names: [Substring: Substring] = [:]
        func name(_ field: Substring) -> Substring {
            guard field.hasPrefix("("), let close = field.firstIndex(of: ")") else { return field }
            let id = field[...close]
            let rest = field[field.index(after: close)...].drop { $0 == " " }
            if rest.isEmpty { return names[id] ?? "" }
            names[id] = rest
            return rest
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("cfn=") {
                calleeIsAllocator = allocators.contains(String(name(line.dropFirst(4))))
            } else if line.hasPrefix("fn=") {
                _ = name(line.dropFirst(3))
            } else if line.hasPrefix("calls=") {
                if calleeIsAllocator, let n = Int(line.dropFirst(6).prefix { $0 != " " }) { allocations += n }
                calleeIsAllocator = false
            } else if line.hasPrefix("summary:") {
                instructions = Int(line.dropFirst(8).split(separator: " ").first ?? "") ?? 0
                haveSummary = true
            } else if line.hasPrefix("totals:") && !haveSummary {
                instructions = Int(line.dropFirst(7).split(separator: " ").first ?? "") ?? 0
            }
        }
        return (instructions, allocations)
    }
}
