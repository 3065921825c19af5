// The pin queries' answers as JSON: pins as GeoJSON features with the properties the CLI's
// `pins` command writes (docs/commands.md), leaves and nearby listings as plain objects.
import Pins
import PinsQueries

enum PinsJSON {
    /// The JSON text of a request's answer: pins as a FeatureCollection (one pin as a
    /// collection of one, without `zoom`), a page of leaves as `{"leaves", "next"}`, nearby
    /// listings as `{"listings", "total", "next"}`.
    static func answer(_ answer: PinsCall.Answer, index: PinIndex) throws(CAPIError) -> String {
        switch answer {
        case let .pins(pins, zoom): return try features(pins, zoom: zoom, index: index)
        case .pin(let pin): return try features([pin], zoom: nil, index: index)
        case .children(let pins): return try features(pins, zoom: pins.first?.zooms.lowerBound, index: index)
        case .leaves(let page):
            var json = JSONBuilder()
            json.open("{")
            json.key("leaves")
            json.open("[")
            for leaf in page.leaves { Self.leaf(leaf, distance: nil, into: &json) }
            json.close("]")
            json.member("next", string: page.next?.token)
            json.close("}")
            return json.text
        case .nearby(let page):
            var json = JSONBuilder()
            json.open("{")
            json.key("listings")
            json.open("[")
            for near in page.listings { leaf(near.leaf, distance: near.distance, into: &json) }
            json.close("]")
            json.member("total", integer: Int64(page.total))
            json.member("next", string: page.next?.token)
            json.close("}")
            return json.text
        }
    }

    /// A FeatureCollection of `pins`, each a Point at its displayed centroid; `zoom` is the
    /// zoom they are shown at (nil: not written).
    static func features(_ pins: [Pin], zoom: Int?, index: PinIndex) throws(CAPIError) -> String {
        var json = JSONBuilder()
        json.open("{")
        json.member("type", string: "FeatureCollection")
        json.key("features")
        json.open("[")
        for pin in pins {
            json.open("{")
            json.member("type", string: "Feature")
            json.key("geometry")
            json.open("{")
            json.member("type", string: "Point")
            json.key("coordinates")
            json.open("[")
            json.number(pin.longitude)
            json.number(pin.latitude)
            json.close("]")
            json.close("}")
            json.key("properties")
            json.open("{")
            try properties(pin, zoom: zoom, index: index, into: &json)
            json.close("}")
            json.close("}")
        }
        json.close("]")
        json.close("}")
        return json.text
    }

    private static func properties(_ pin: Pin, zoom: Int?, index: PinIndex, into json: inout JSONBuilder) throws(CAPIError) {
        if let zoom { json.member("zoom", integer: Int64(zoom)) }
        json.member("id", string: String(pin.id.rawValue))
        json.member("kind", string: pin.kind.rawValue)
        json.member("count", integer: Int64(pin.count))
        json.member("diameter", pin.diameter)
        json.member("expansion_zoom", integer: pin.expansionZoom.map(Int64.init))
        json.key("same_location")
        json.bool(pin.sameLocation)
        json.key("bbox")
        json.open("[")
        for v in [pin.bbox.minLongitude, pin.bbox.minLatitude, pin.bbox.maxLongitude, pin.bbox.maxLatitude] { json.number(v) }
        json.close("]")
        json.member("median_deposit", pin.medianDeposit)
        json.member("median_monthly_rent", pin.medianMonthlyRent)
        json.key("categories")
        json.open("{")
        for (code, count) in pin.categoryCounts.nonZero {
            json.member(ListingCategory(code: code)?.rawValue ?? String(code), integer: Int64(count))
        }
        json.close("}")
        guard let id = pin.listingID else { return }
        // The listing's own attributes (for a filtered pin, the listing that passed).
        let leaf: PinLeaf?
        do throws(PinError) { leaf = try index.listing(of: pin) } catch { throw CAPIError(.invalidParameter, "pin_id: \(error)") }
        json.member("listing_id", integer: id)
        json.member("category", string: leaf?.category.map(categoryName))
        json.member("area_m2", leaf?.area)
        json.member("deposit", leaf?.deposit)
        json.member("monthly_rent", leaf?.monthlyRent)
    }

    /// A listing at its displayed position, with its distance when it answers `nearby`.
    static func leaf(_ leaf: PinLeaf, distance: Double?, into json: inout JSONBuilder) {
        json.open("{")
        json.member("id", integer: leaf.id)
        if let distance { json.member("distance_m", distance) }
        json.member("lon", leaf.longitude)
        json.member("lat", leaf.latitude)
        json.member("category", string: leaf.category.map(categoryName))
        json.member("area_m2", leaf.area)
        json.member("deposit", leaf.deposit)
        json.member("monthly_rent", leaf.monthlyRent)
        json.close("}")
    }

    /// A category's name, or its code as text for a code no category has.
    static func categoryName(_ code: UInt8) -> String { ListingCategory(code: code)?.rawValue ?? String(code) }
}
