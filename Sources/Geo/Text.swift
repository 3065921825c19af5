// Text helpers the package's modules share (`package` access: not part of the public API).
// They replace Foundation's `trimmingCharacters(in:)`, so that the modules the command line
// links need only FoundationEssentials, which starts faster (see Package.swift).

extension StringProtocol {
    /// The text without leading and trailing whitespace: spaces and tabs (Unicode's space
    /// separators, as Foundation's `.whitespaces`), and line breaks too when `newlines`.
    package func trimmingWhitespace(newlines: Bool = false) -> String {
        func isSpace(_ c: Character) -> Bool { c.isWhitespace && (newlines || !c.isNewline) }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
