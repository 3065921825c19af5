// A map app's session, simulated: listings arrive, the index is built once off the main
// thread, then a camera moves over the city and the app draws what the index returns. Every
// line printed is what the app would draw or show; lines with key=value pairs are checked by
// scripts/dev/consumer.sh.
import Pins

// Load the listings (a real app receives them from its server).
let city = generateCity(listings: 6_000, seed: 2026)
print("city: \(city.count) listings in \(Set(city.map(\.building)).count) buildings")

// Build the index once, off the main thread. The mask belongs on the server: a real app
// receives positions the server already displaced and builds with `.disabled`, so neither
// the true positions nor the key reach the phone. This example masks here, with an insecure
// test key, so that it is self-contained and its output the same on every run.
func makeIndex(_ listings: [Listing], key: PinsKey) throws(PinError) -> PinIndex {
    var columns = PinListings(capacity: listings.count)
    for l in listings {
        columns.append(id: l.id, longitude: l.longitude, latitude: l.latitude,
                       locationKey: LocationKey(explicit: UInt64(l.building)),
                       category: l.category.code, area: l.area, deposit: l.deposit, monthlyRent: l.monthlyRent)
    }
    let options = PinOptions(privacy: .displaced(PrivacyMask(key: key)))
    return try PinIndex(listings: consume columns, options: options)
}
let key = PinsKey.insecureTestKey(seed: 7)
let index = try await Task.detached { try makeIndex(city, key: key) }.value
print("index: \(index.listingCount) listings, \(index.locationCount) locations")

// On every camera change: the pins for the zoom, the visible box and the active filter.
func draw(_ pins: [Pin], label: String) {
    let clusters = pins.filter { $0.kind == .cluster }.count
    let buildings = pins.filter { $0.kind == .building }.count
    let listed = pins.reduce(0) { $0 + $1.count }
    print("\(label): \(pins.count) pins (\(clusters) clusters, \(buildings) buildings, "
          + "\(pins.count - clusters - buildings) listings) standing for \(listed) listings")
}
let cameras: [(zoom: Double, box: BoundingBox)] = [
    (10.5, BoundingBox(minLongitude: 126.80, minLatitude: 37.42, maxLongitude: 127.18, maxLatitude: 37.70)),
    (12.0, BoundingBox(minLongitude: 126.95, minLatitude: 37.47, maxLongitude: 127.08, maxLatitude: 37.58)),
    (14.3, BoundingBox(minLongitude: 127.00, minLatitude: 37.48, maxLongitude: 127.05, maxLatitude: 37.52)),
    (16.8, BoundingBox(minLongitude: 127.02, minLatitude: 37.49, maxLongitude: 127.035, maxLatitude: 37.505)),
]
for camera in cameras {
    draw(try index.pins(zoom: camera.zoom, bbox: camera.box), label: "camera zoom \(camera.zoom)")
}

// A MapKit camera (MapKitAdapter.swift): the view's visible map rect and its width in points
// give the zoom and the box; on iOS, MapRect(mapView.visibleMapRect) and mapView.bounds.width.
let phone = MapRect(centre: 127.0, 37.53, width: 99_840, height: 216_064)  // 390 × 844 pt at zoom 12
let annotations = Set(try index.pins(zoom: phone.zoom(viewWidth: 390), bbox: phone.box).map(PinAnnotation.init))
print("mapkit camera: zoom=\(phone.zoom(viewWidth: 390)) annotations=\(annotations.count) "
      + "clusters=\(annotations.filter(\.isCluster).count) listings=\(annotations.reduce(0) { $0 + $1.count })")
// Zooming in: keep the annotations that stay, remove the others, add the new ones.
let closer = phone.zoomed(by: 4)
let next = Set(try index.pins(zoom: closer.zoom(viewWidth: 390), bbox: closer.box).map(PinAnnotation.init))
print("mapkit zoom in: zoom=\(closer.zoom(viewWidth: 390)) before=\(annotations.count) kept=\(annotations.intersection(next).count) "
      + "removed=\(annotations.subtracting(next).count) added=\(next.subtracting(annotations).count) after=\(next.count)")

// A filter is applied at query time: toggling it needs no rebuild.
let affordable = AttributeFilter(categories: CategorySet([ListingCategory.apartment, .officetel]),
                                 deposit: ValueRange(upper: 30_000))
draw(try index.pins(zoom: 12.0, bbox: cameras[1].box, filter: affordable), label: "filtered zoom 12.0")

// Tap a cluster: page through its listings with the cursor, or zoom to where it splits.
let visible = try index.pins(zoom: 12.0, bbox: cameras[1].box)
if let tapped = visible.filter({ $0.kind == .cluster }).max(by: { ($0.count, $0.id) < ($1.count, $1.id) }) {
    var leaves: [PinLeaf] = []
    var pages = 0
    var cursor: PinCursor? = nil
    repeat {
        let page = try index.leaves(of: tapped.id, limit: 50, cursor: cursor)
        leaves += page.leaves
        pages += 1
        cursor = page.next
    } while cursor != nil
    let expansion = try index.expansionZoom(of: tapped.id).map(String.init) ?? "none"
    let children = try index.children(of: tapped.id)
    print("tapped cluster \(tapped.id): count=\(tapped.count) leaves=\(leaves.count) pages=\(pages) "
          + "expansionZoom=\(expansion) children=\(children.count) childListings=\(children.reduce(0) { $0 + $1.count })")
}

// Tap a building: its listings, at the building's displayed position.
let street = try index.pins(zoom: 17, bbox: cameras[3].box)
if let building = street.filter({ $0.kind == .building }).max(by: { ($0.count, $0.id) < ($1.count, $1.id) }) {
    let page = try index.leaves(of: building.id, limit: 100, cursor: nil)
    print("tapped building \(building.id): count=\(building.count) leaves=\(page.leaves.count)")
    for leaf in page.leaves.prefix(3) {
        print("  listing \(leaf.id): \(leaf.area.map { "\(Int($0)) m²" } ?? "?"), "
              + "deposit \(leaf.deposit.map { "\(Int($0))" } ?? "?"), rent \(leaf.monthlyRent.map { "\(Int($0))" } ?? "?")")
    }
}

// Near me: listings within 5 km of the phone, nearest first (distances rounded to 100 m).
let nearMe = try index.nearby(longitude: 127.028, latitude: 37.498, radius: 5_000, filter: affordable, limit: 5)
print("near me: total=\(nearMe.total) shown=\(nearMe.listings.count)")
for near in nearMe.listings {
    print("  listing \(near.leaf.id) at \(Int(near.distance)) m")
}

// What the checks compare: at every zoom the whole city's pins stand for every listing shown
// (those held back, with too few neighbours to share a point with, are not), and the filtered
// pins for exactly the shown listings that pass the filter.
let left = Set(index.setAside.heldBack + index.setAside.conflicting)
let shown = city.filter { !left.contains($0.id) }
let passing = shown.filter { [ListingCategory.apartment, .officetel].contains($0.category) && $0.deposit <= 30_000 }.count
for zoom in [0.0, 8, 11, 14, 17, 22] {
    let all = try index.pins(zoom: zoom).reduce(0) { $0 + $1.count }
    let filtered = try index.pins(zoom: zoom, filter: affordable).reduce(0) { $0 + $1.count }
    print("world zoom \(Int(zoom)): listings=\(all) expected=\(shown.count) filtered=\(filtered) expectedFiltered=\(passing)")
}
