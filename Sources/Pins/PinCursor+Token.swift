// A cursor's text form, for callers that hand cursors to a client and take them back (a web
// back end's next-page token, the C API).

extension PinCursor {
    /// The cursor as text: two lower-case hexadecimal numbers joined by a dot. It names a
    /// query and an offset, nothing else; the query that takes it back checks both.
    public var token: String { String(query, radix: 16) + "." + String(offset, radix: 16) }

    /// The cursor of a `token`; nil when the text is not one.
    public init?(token: some StringProtocol) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let query = UInt64(parts[0], radix: 16), let offset = Int(parts[1], radix: 16),
              offset >= 0 else { return nil }
        self.init(query: query, offset: offset)
    }
}
