// What a geocluster process does to itself, and why
// ===================================================
//
// A geocluster process sets up its own memory use, so that its peak stays near the largest
// stage's working set and large inputs do not drown in page faults (docs/process.md has the
// measurements behind each choice; the output is the same in every mode):
//
// 1. At start, for every command (`ProcessTuning.start()`):
//    - the environment is put back as the user gave it, if this process is the huge-page
//      restart of step 3 (so child processes — benchmark cells, peers — see the user's own
//      `GLIBC_TUNABLES`);
//    - glibc's mmap threshold is fixed at 1 MiB: every array of 1 MiB or more gets a mapping of
//      its own and goes back to the system when freed. glibc would otherwise raise the
//      threshold each time a large block is freed, after which big arrays come from the heap
//      and their pages stay resident, so the peak would be the sum of all stages.
// 2. `geocluster cluster …` is parsed with the cluster command as the root
//    (`Geocluster.runClusterDirectly`): ArgumentParser then skips building its arguments twice
//    more while scanning the root's, a good part of a small run's start-up. Anything it does
//    not accept (help, a usage mistake, a failed validation) goes through the full command
//    tree instead, which parses again and reports exactly as before.
// 3. By the input file's size, for `cluster` and `bench-cell` (`tuneMemory(forInput:)`):
//    - under 16 MiB (`MemoryTier.small`): freed arrays stay in the heap for the next stage to
//      reuse; peak memory is no concern at that size and each page fault saved is time saved;
//    - from 16 MiB (`.large`): the process starts itself again (`execv` of /proc/self/exe)
//      with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, so glibc asks for transparent huge pages
//      on its mappings: one fault per 2 MiB page instead of one per 4 KiB for the gigabytes of
//      fresh arrays a large run touches. Only on a kernel in `madvise` mode, the one where
//      glibc has to ask;
//    - from 256 MiB (`.veryLarge`): besides, every array comes from the heap and freed ones
//      stay there, so later stages reuse pages instead of having the kernel zero fresh ones.
//      The heap's fragmentation raises the peak, which smaller inputs' memory budgets do not
//      allow: hence the threshold.
//    `tree` keeps freed memory for small inputs only (`keepFreedMemoryIfSmall(input:)`).
// 4. Commands that build a map-pin index (`pins`, `pins-cell`, `nearby`, `map --zoom`) keep
//    freed memory whatever the size (`keepFreedMemoryForPins()`): the build makes and drops
//    many mid-sized arrays, each of which would otherwise come back from the kernel page by
//    page.
//
// Environment variables that steer it:
// - `GEOCLUSTER_HUGE_PAGES=0`: never start again with huge pages (step 3).
// - `GEOCLUSTER_REUSE_FREED_MEMORY=0`: inputs from 256 MiB return freed arrays to the system
//   like those from 16 MiB: a lower peak for a longer run.
// - `GLIBC_TUNABLES`: the user's own glibc settings are kept, with the huge-page tunable
//   appended for the restart and the user's value restored after it; if it already names
//   `glibc.malloc.hugetlb`, that is the user's choice and there is no restart.
// Across the restart the C side passes two variables of its own,
// `GEOCLUSTER_RESTARTED_FOR_HUGE_PAGES` and `GEOCLUSTER_SAVED_GLIBC_TUNABLES`, removed again
// at start (step 1); a user never sets them.
//
// `geocluster cluster --timings` shows the outcome on its last two lines: `huge pages on|off`
// and `freed memory kept|returned`.
import CSystemTuning
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The steps a geocluster process takes on itself (the header above says which and why).
public enum ProcessTuning {
    /// Step 1: the user's environment back (in a huge-page restart), the mmap threshold fixed.
    public static func start() {
        _ = geocluster_restore_environment()
        _ = geocluster_fix_mmap_threshold(1 << 20)
    }

    /// Whether this process runs with glibc's huge-page tunable (it is the restart of step 3).
    public static var hugePages: Bool { geocluster_huge_pages() != 0 }

    /// Whether freed memory stays in this process for an input at `path` (step 3).
    public static func keepsFreedMemory(input path: String) -> Bool { MemoryTier(input: path)?.keepsFreedMemory ?? false }

    /// Step 4, for the commands that build a map-pin index: freed arrays stay in the heap for
    /// the build's next step to reuse (see `geocluster_keep_freed_memory`).
    public static func keepFreedMemoryForPins() {
        _ = geocluster_keep_freed_memory()
    }

    /// For an input file under 16 MiB, where peak memory is no concern: freed arrays stay in
    /// the heap for the next stage to reuse. Larger inputs keep the fixed threshold of step 1.
    public static func keepFreedMemoryIfSmall(input path: String) {
        if MemoryTier(input: path) == .small { _ = geocluster_keep_freed_memory() }
    }

    /// Step 3, for `cluster` and `bench-cell`: memory use by the input file's size. A large
    /// input may restart the process here (`geocluster_restart_with_huge_pages`), which then
    /// runs the same command from the start with the same arguments.
    public static func tuneMemory(forInput path: String) {
        guard let tier = MemoryTier(input: path) else { return }
        switch tier {
        case .small: keepFreedMemoryIfSmall(input: path)
        case .large: geocluster_restart_with_huge_pages(CommandLine.unsafeArgv)
        case .veryLarge:
            geocluster_restart_with_huge_pages(CommandLine.unsafeArgv)
            if MemoryTier.reusesFreedMemory { _ = geocluster_reuse_freed_memory() }
        }
    }
}

/// The input sizes `ProcessTuning.tuneMemory(forInput:)` tells apart: under 16 MiB, under
/// 256 MiB, and larger.
enum MemoryTier {
    case small, large, veryLarge

    /// The tier of a regular file; nil for anything else (standard input, a pipe, a missing file).
    init?(input path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        self = size < 16 << 20 ? .small : size < 256 << 20 ? .large : .veryLarge
    }

    /// Whether freed memory stays in the process for reuse (else arrays of 1 MiB or more go
    /// back to the system when freed: step 1).
    var keepsFreedMemory: Bool {
        switch self {
        case .small: true
        case .large: false
        case .veryLarge: Self.reusesFreedMemory
        }
    }

    /// Whether very large inputs keep freed memory (unless `GEOCLUSTER_REUSE_FREED_MEMORY=0`).
    static var reusesFreedMemory: Bool { getenv("GEOCLUSTER_REUSE_FREED_MEMORY").map { String(cString: $0) != "0" } ?? true }
}
