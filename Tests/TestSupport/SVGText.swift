import Foundation

/// Every text element's content in an SVG document, joined by spaces, so that a legend's
/// wrapped lines read as one text.
public func svgText(_ svg: String) -> String {
    svg.components(separatedBy: "</text>")
        .compactMap { part in part.range(of: ">", options: .backwards).map { String(part[$0.upperBound...]) } }
        .joined(separator: " ")
}
