import Reports
import Testing

@Suite struct XMLWriterTests {
    @Test func escapesTextAndAttributes() {
        var w = XMLWriter()
        w.open("svg", ["title": "a\"b<c>&'d"])
        w.element("text", text: "<script>alert(1)</script> & \u{1}")
        w.close()
        #expect(w.finish() == "<svg title=\"a&quot;b&lt;c&gt;&amp;&#39;d\"><text>&lt;script&gt;alert(1)&lt;/script&gt; &amp; </text></svg>")
    }

    @Test func numbersHaveNoExponentAndNoTrailingZeros() {
        #expect(svgNumber(1.5) == "1.5")
        #expect(svgNumber(2.0) == "2")
        #expect(svgNumber(-0.004) == "0")
        #expect(svgNumber(-3.14159, decimals: 3) == "-3.142")
        #expect(svgNumber(1e-7) == "0")
        #expect(svgNumber(12345678.9, decimals: 1) == "12345678.9")
        #expect(svgNumber(0.05) == "0.05")
    }
}
