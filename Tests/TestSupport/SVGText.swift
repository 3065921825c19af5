import Foundation

/// Every text element's content in an SVG document, joined by spaces, so that a legend's
/// wrapped lines read as one text.
public func svgText(_ svg: String) -> String {
    svg.components(separatedBy: "</text>")
        .compactMap { part in part.range(of: ">", options: .backwards).map { String(part[$0.upperBound...]) } }
        .joined(separator: " ")
}

/// The values of `attribute` on every `<element …>` start tag of `svg`, in document order.
public func attributeValues(_ svg: String, element: String, attribute: String) -> [String] {
    var out: [String] = []
    var rest = svg[...]
    while let start = rest.range(of: "<" + element + " ") {
        let tagEnd = rest[start.upperBound...].firstIndex(of: ">") ?? rest.endIndex
        let tag = rest[start.upperBound..<tagEnd]
        if let a = tag.range(of: " " + attribute + "=\"") ?? (tag.hasPrefix(attribute + "=\"") ? tag.range(of: attribute + "=\"") : nil),
           let close = tag[a.upperBound...].firstIndex(of: "\"") {
            out.append(String(tag[a.upperBound..<close]))
        }
        rest = rest[tagEnd...]
    }
    return out
}
