import Testing
@testable import Geo

@Suite("Text helpers shared by the modules")
struct TextTests {
    @Test("trimmingWhitespace drops spaces and tabs at both ends, line breaks only when asked")
    func trimming() {
        #expect(" \tx, y \t".trimmingWhitespace() == "x, y")
        #expect("auto".trimmingWhitespace() == "auto")
        #expect("   ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        // No-break space (U+00A0) is a space separator, as in Foundation's `.whitespaces`.
        #expect("\u{00A0}lat\u{00A0}".trimmingWhitespace() == "lat")
        #expect("\nlat\r\n".trimmingWhitespace() == "\nlat\r\n")
        #expect("\n lat \r\n".trimmingWhitespace(newlines: true) == "lat")
        #expect(" 강남 구 ".trimmingWhitespace() == "강남 구")
        #expect("x"[...].trimmingWhitespace() == "x")
    }
}
