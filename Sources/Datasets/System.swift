#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library calls Datasets makes (open, read, write, stat, mmap), so that the module needs
// only FoundationEssentials (see Package.swift): Foundation proper re-exported them.

/// Whether something is at `path` (false also when it cannot be examined) and whether it is a
/// folder.
func fileKind(atPath path: String) -> (exists: Bool, isFolder: Bool) {
    var info = stat()
    guard stat(path, &info) == 0 else { return (false, false) }
    return (true, (info.st_mode & S_IFMT) == S_IFDIR)
}

/// `write(2)`, named apart from the writers' own `write` methods.
@inline(__always)
func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}

/// `open(2)`, named apart from the readers' own `open` methods.
@inline(__always)
func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}

/// Opens an input for reading from its first byte (`InputFile`: `-`, pipes and gzip files
/// included), with the errors every reader reports: `.fileNotFound`, and `.unreadable` for a
/// folder or a file the process may not read. The caller closes the descriptor.
func openForReading(_ path: String) throws(DatasetError) -> Int32 {
    try InputFile.open(path)
}
