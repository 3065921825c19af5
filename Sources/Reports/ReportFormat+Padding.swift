extension ReportFormat {
    /// `text` padded with spaces, or cut, to `width` characters: a column of a console table.
    public static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
