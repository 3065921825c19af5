import Foundation
import Harness
import Reports
import Testing

/// Opens the report in headless chromium and checks that the table and every figure render:
///
/// 1. The test writes the page, and a probe copy of it with one inline script appended that,
///    after layout, writes the box (CSS pixels) of the summary table and of each figure's
///    `<svg>` into a `<pre>` at the end of the body. The script is the test's, not the page's:
///    the report itself has none.
/// 2. `chromium --dump-dom` on the probe gives the boxes and counts; a first run measures the
///    page's height, so the second and the screenshot use a window as tall as the page (the
///    same layout, and every box inside the picture).
/// 3. `chromium --screenshot` of the probe; `PNGImage` decodes it (zlib through dlopen, filters
///    here), and each box must hold non-background pixels and, for figures, saturated colour
///    (markers and clusters, not just axes and text).
///
/// Without chromium (not on PATH, or `CHROMIUM=none`) the test prints a loud warning and checks
/// instead that the page and every SVG are well-formed XML (`XMLCheck`, and `xmllint` too when
/// installed) and that every row and figure is in the parsed page. `GEOCLUSTER_KEEP_REPORT=DIR`
/// copies the page and the screenshot to DIR to look at.
@Suite struct BrowserRenderTests {
    static let width = 1280

    @Test func tableAndEveryFigureRenderInChromium() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geocluster-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = HTMLReport.render(summary: ReportSample.summary, figures: ReportSample.figures, info: ReportSample.info)
        let index = folder.appendingPathComponent("index.html")
        try page.write(to: index, atomically: true, encoding: .utf8)
        defer { keep([index, folder.appendingPathComponent("screenshot.png")]) }

        let disabled = ProcessInfo.processInfo.environment["CHROMIUM"] == "none"
        guard !disabled, let browser = HeadlessBrowser.find() else {
            warnLoudly(disabled ? "CHROMIUM=none" : "no `chromium` on PATH (Debian: apt-get install chromium; `make test` installs it as root)")
            try validateWithoutBrowser(page: page, file: index)
            return
        }

        let probe = folder.appendingPathComponent("probe.html")
        try page.replacing("</body>", with: Self.probeScript + "</body>").write(to: probe, atomically: true, encoding: .utf8)
        let first = try Probe(browser.dumpDOM(probe, width: Self.width, height: 900, scratch: folder))
        let height = first.pageHeight + 8
        let layout = try Probe(browser.dumpDOM(probe, width: Self.width, height: height, scratch: folder))

        // The DOM after load: every row, every figure with its SVG.
        #expect(layout.rows == ReportSample.summary.count)
        #expect(layout.missing == [], "figures without an <svg> after load: \(layout.missing)")
        let expected = Set(["summary-table", "plot-speed-quality", "plot-scaling"]
            + ReportSample.figures.indices.map { "\(ReportSample.figures[$0].kind.rawValue)-\($0 + 1)" }).count
        #expect(layout.boxes.count == expected, "boxes measured: \(layout.boxes.keys.sorted())")
        #expect(layout.pageWidth <= Self.width + 1, "the page is wider than the window: \(layout.pageWidth) px")

        // The screenshot: ink in every box.
        let png = folder.appendingPathComponent("screenshot.png")
        try browser.screenshot(probe, to: png, width: Self.width, height: height, scratch: folder)
        let image = try PNGImage(contentsOf: png)
        #expect(image.width == Self.width && image.height == height, "screenshot \(image.width)×\(image.height)")
        for (name, box) in layout.boxes.sorted(by: { $0.key < $1.key }) {
            #expect(box.w >= 60 && box.h >= 60, "\(name) is laid out at \(box.w)×\(box.h) px")
            let ink = Self.ink(in: box, of: image)
            #expect(ink.area > 0 && Double(ink.inked) >= 0.02 * Double(ink.area),
                    "\(name): \(ink.inked) of \(ink.area) pixels differ from the white background")
            if name != "summary-table" {
                #expect(Double(ink.coloured) >= 0.002 * Double(ink.area), "\(name): only \(ink.coloured) coloured pixels")
            }
        }
    }

    /// Pixels in `box` (inset by 2 px, clamped to the image) that are not white, and those with
    /// clearly saturated colour (channels differing by 60 or more).
    static func ink(in box: Probe.Box, of image: PNGImage) -> (area: Int, inked: Int, coloured: Int) {
        let x0 = max(0, box.x + 2), y0 = max(0, box.y + 2)
        let x1 = min(image.width, box.x + box.w - 2), y1 = min(image.height, box.y + box.h - 2)
        guard x1 > x0, y1 > y0 else { return (0, 0, 0) }
        var inked = 0, coloured = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let (r, g, b) = image.rgb(x, y)
                if min(r, g, b) < 240 { inked += 1 }
                if max(r, g, b) - min(r, g, b) >= 60 { coloured += 1 }
            }
        }
        return ((x1 - x0) * (y1 - y0), inked, coloured)
    }

    /// The test's own script, appended to a copy of the page: it reports the layout.
    static let probeScript = """
    <script>
    (function () {
      var lines = [], d = document.documentElement;
      lines.push('page ' + d.scrollWidth + ' ' + Math.ceil(d.scrollHeight));
      lines.push('rows ' + document.querySelectorAll('#summary-table tr[data-row]').length);
      function box(name, el) {
        var r = el.getBoundingClientRect();
        lines.push('box ' + name + ' ' + Math.round(r.left + window.scrollX) + ' ' + Math.round(r.top + window.scrollY)
                   + ' ' + Math.round(r.width) + ' ' + Math.round(r.height));
      }
      box('summary-table', document.getElementById('summary-table'));
      document.querySelectorAll('figure[id]').forEach(function (f) {
        var s = f.querySelector('svg');
        if (s) { box(f.id, s); } else { lines.push('missing ' + f.id); }
      });
      var pre = document.createElement('pre');
      pre.id = 'probe';
      pre.textContent = '\\n' + lines.join('\\n') + '\\n';
      document.body.appendChild(pre);
    })();
    </script>
    """

    /// What the probe script wrote into the DOM.
    struct Probe {
        struct Box { var x, y, w, h: Int }
        var pageWidth = 0, pageHeight = 0, rows = 0
        var boxes: [String: Box] = [:]
        var missing: [String] = []

        init(_ dom: String) throws {
            guard let start = dom.firstRange(of: "<pre id=\"probe\">"), let end = dom[start.upperBound...].firstRange(of: "</pre>") else {
                throw HeadlessBrowser.Failure(description: "the probe script wrote nothing; DOM begins: \(dom.prefix(300))")
            }
            for line in dom[start.upperBound..<end.lowerBound].split(separator: "\n") {
                let f = line.split(separator: " ").map(String.init)
                switch f.first {
                case "page": pageWidth = Int(f[1]) ?? 0; pageHeight = Int(f[2]) ?? 0
                case "rows": rows = Int(f[1]) ?? 0
                case "box": boxes[f[1]] = Box(x: Int(f[2]) ?? 0, y: Int(f[3]) ?? 0, w: Int(f[4]) ?? 0, h: Int(f[5]) ?? 0)
                case "missing": missing.append(f[1])
                default: break
                }
            }
        }
    }

    private func warnLoudly(_ why: String) {
        let bar = String(repeating: "!", count: 78)
        let message = "\n\(bar)\n!! WARNING: the HTML report was NOT rendered in a browser: \(why).\n"
            + "!! Checking only that the page and every SVG are well-formed XML and hold every row and figure.\n\(bar)\n"
        FileHandle.standardError.write(Data(message.utf8))
        print(message)
    }

    /// The fallback: the page and each SVG parse as XML; every row and figure is there.
    private func validateWithoutBrowser(page: String, file: URL) throws {
        let document = try XMLCheck(page)
        let svgs = ReportSample.figures.map(\.svg) + [SpeedQualityPlot.render(ReportSample.summary), ScalingPlot.render(ReportSample.summary)]
        for svg in svgs {
            let parsed = try XMLCheck(svg)
            #expect(parsed.elements.first?.name == "svg")
            #expect(parsed.elements.count > 5, "an SVG with almost nothing in it")
        }
        #expect(document.elements.filter { $0.name == "tr" && $0.attributes["data-row"] != nil }.count == ReportSample.summary.count)
        let figures = document.elements.indices.filter { document.elements[$0].name == "figure" }
        #expect(figures.count == ReportSample.figures.count + 2)
        for f in figures {
            #expect(document.elements.indices.contains { document.elements[$0].name == "svg" && document.isInside($0, f) })
        }
        if let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first(where: FileManager.default.isExecutableFile) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xmllint)
            process.arguments = ["--noout", file.path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "xmllint rejects the page")
        }
    }

    private func keep(_ files: [URL]) {
        guard let path = ProcessInfo.processInfo.environment["GEOCLUSTER_KEEP_REPORT"], !path.isEmpty else { return }
        let destination = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            let target = destination.appendingPathComponent(file.lastPathComponent)
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.copyItem(at: file, to: target)
        }
    }
}
