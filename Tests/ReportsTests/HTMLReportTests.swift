import Foundation
import Harness
@testable import Reports
import Testing

@Suite struct HTMLReportTests {
    static let page = HTMLReport.render(summary: ReportSample.summary, figures: ReportSample.figures, info: ReportSample.info)

    /// Elements that fetch or run something, and attributes that name a resource to load.
    static let loadingElements: Set<String> = ["script", "link", "img", "iframe", "object", "embed", "audio", "video",
                                               "source", "track", "base", "frame", "image", "feimage", "input", "form"]
    static let loadingAttributes: Set<String> = ["src", "srcset", "action", "formaction", "poster", "background", "data", "ping"]

    /// Every way the page could make a request, checked on the parsed page: no loading
    /// element, no `src`-like attribute, every link a fragment (`#…`), no `url(` but
    /// `url(#…)` and no `@import` in any style.
    static func requests(in document: XMLCheck) -> [String] {
        var found: [String] = []
        for e in document.elements {
            if loadingElements.contains(e.name.lowercased()) { found.append("<\(e.name)>") }
            for (key, value) in e.attributes {
                let k = key.lowercased()
                if loadingAttributes.contains(k) { found.append("\(e.name) \(key)=\"\(value)\"") }
                if (k == "href" || k == "xlink:href") && !value.hasPrefix("#") { found.append("\(e.name) \(key)=\"\(value)\"") }
                if k.hasPrefix("on") { found.append("\(e.name) \(key) (a script)") }
                if k == "style" { found.append(contentsOf: styleRequests(value).map { "\(e.name) style: \($0)" }) }
            }
            if e.name == "style" { found.append(contentsOf: styleRequests(e.text).map { "<style>: \($0)" }) }
        }
        return found
    }

    static func styleRequests(_ css: String) -> [String] {
        var found: [String] = []
        if css.contains("@import") { found.append("@import") }
        var rest = Substring(css)
        while let r = rest.firstRange(of: "url(") {
            let after = rest[r.upperBound...].drop { $0 == " " || $0 == "\"" || $0 == "'" }
            if !after.hasPrefix("#") { found.append("url(" + after.prefix(40)) }
            rest = rest[r.upperBound...]
        }
        return found
    }

    @Test func pageNamesNoURLAndLoadsNothing() throws {
        let page = Self.page
        for needle in ["http:", "https:", "ftp:", "file:", "data:", "//www.", "<link", " src=", "@import", "<script"] {
            #expect(!page.contains(needle), "the page contains \(needle)")
        }
        let document = try XMLCheck(page)
        #expect(Self.requests(in: document) == [])
        // The sample's figures carry the SVG namespace URL; embedding drops it.
        #expect(ReportSample.figures.allSatisfy { $0.svg.contains("http://www.w3.org/2000/svg") })
    }

    @Test func hostileTextStaysText() throws {
        var rows = ReportSample.summary
        rows[0].error = "<img src=\"http://evil.example/x.png\"></style><script>alert(1)</script>"
        rows[1].parameters = "eps=\"><link rel=stylesheet href=//evil.example/a.css>"
        let figure = ReportFigure(kind: .map, dataset: "seoul-10k\"><iframe src=x>", implementation: "geocluster", method: "hdbscan",
                                  parameters: "p", title: "<script>x</script>", svg: ReportSample.map(seed: 9, clusters: 2))
        let info = ReportInfo(title: "</title><script>1</script>", generatedAt: "now", version: "0", commit: "c", machine: "m",
                              commandLine: "geocluster bench --output '<a href=\"https://x\">'")
        let document = try XMLCheck(HTMLReport.render(summary: rows, figures: [figure], info: info))
        #expect(Self.requests(in: document) == [])
        let texts = document.elements.map(\.text).joined()
        #expect(texts.contains("<img src=\"http://evil.example/x.png\">"), "the error message is shown as text")
        #expect(texts.contains("</title><script>1</script>"))
    }

    @Test func sameInputSameBytesWhateverTheGroupsOrder() {
        let again = HTMLReport.render(summary: ReportSample.summary, figures: ReportSample.figures, info: ReportSample.info)
        let same = again == Self.page   // not inside #expect, which would print both pages
        #expect(same, "\(firstDifference(again, Self.page))")
        // The page sorts datasets and methods itself: moving whole groups around (the order
        // within a dataset × implementation × method group is kept) changes nothing.
        let summary = ReportSample.summary.filter { $0.dataset == "seoul-100k" }.reversed().reversed()
            + ReportSample.summary.filter { $0.dataset == "seoul-10k" && $0.implementation != "geocluster" }
            + ReportSample.summary.filter { $0.dataset == "seoul-10k" && $0.implementation == "geocluster" && $0.method != "hdbscan" }
            + ReportSample.summary.filter { $0.dataset == "seoul-10k" && $0.implementation == "geocluster" && $0.method == "hdbscan" }
        let figures = ReportSample.figures.filter { $0.kind == .tree } + ReportSample.figures.filter { $0.kind == .map }.reversed()
        #expect(summary.count == ReportSample.summary.count)
        let moved = HTMLReport.render(summary: Array(summary), figures: figures, info: ReportSample.info)
        let unchanged = moved == Self.page
        #expect(unchanged, "\(firstDifference(moved, Self.page))")
    }

    /// Where two pages part, with some context (the pages themselves are too long to print).
    func firstDifference(_ a: String, _ b: String) -> String {
        let x = Array(a.utf8), y = Array(b.utf8)
        let i = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        func around(_ s: [UInt8]) -> String { String(decoding: s[max(0, i - 80)..<min(s.count, i + 80)], as: UTF8.self) }
        return "lengths \(x.count) and \(y.count); first difference at byte \(i):\n\(around(x))\n---\n\(around(y))"
    }

    @Test func everyRowAndFigureIsOnThePageOnce() throws {
        let document = try XMLCheck(Self.page)
        let rows = document.elements.filter { $0.name == "tr" && $0.attributes["data-row"] != nil }
        #expect(rows.count == ReportSample.summary.count)
        #expect(rows.filter { $0.attributes["class"] == "best" }.count == ReportSample.summary.filter(\.bestInSweep).count)
        let figures = document.elements.indices.filter { document.elements[$0].name == "figure" }
        #expect(figures.count == ReportSample.figures.count + 2)
        for kind in ReportFigure.Kind.allCases {
            #expect(figures.filter { document.elements[$0].attributes["data-figure"] == kind.rawValue }.count
                    == ReportSample.figures.filter { $0.kind == kind }.count)
        }
        for f in figures {
            let svgs = document.elements.indices.filter { document.elements[$0].name == "svg" && document.isInside($0, f) }
            #expect(svgs.count == 1, "figure \(document.elements[f].attributes["id"] ?? "?") holds \(svgs.count) SVGs")
        }
        // Ten maps each define id="frame": prefixed, every id on the page is unique, and each
        // clip-path reference points at an id that exists.
        let ids = document.elements.compactMap { $0.attributes["id"] }
        #expect(Set(ids).count == ids.count)
        let references = document.elements.compactMap { $0.attributes["clip-path"] }
        #expect(references.count == 10)
        for reference in references {
            #expect(ids.contains(String(reference.dropFirst("url(#".count).dropLast())), "\(reference) names no element")
        }
        // Maps: one column per implementation and method, geocluster's first.
        let heads = document.elements.filter { $0.attributes["class"] == "col-head" }.map(\.text)
        #expect(Array(heads.prefix(5)) == ["geocluster · dbscan", "geocluster · grid", "geocluster · hdbscan",
                                           "fast_hdbscan · hdbscan", "hdbscan · hdbscan"])
    }

    @Test func notAnSVGIsReportedNotEmbedded() throws {
        let figure = ReportFigure(kind: .tree, dataset: "d", implementation: "geocluster", method: "hdbscan", parameters: "",
                                  title: "t", svg: "<html>oops</html>")
        let page = HTMLReport.render(summary: [], figures: [figure], info: ReportSample.info)
        #expect(!page.contains("oops"))
        #expect(page.contains("This figure is not an SVG document."))
        _ = try XMLCheck(page)
        #expect(HTMLReport.inlineSVG("<?xml version=\"1.0\"?>\n<!-- c -->\n<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"a\"><use href=\"#a\"/></svg>\n",
                                     prefix: "p-") == "<svg id=\"p-a\"><use href=\"#p-a\"/></svg>")
    }
}
