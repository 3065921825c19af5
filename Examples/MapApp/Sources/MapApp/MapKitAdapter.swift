// MapKit-shaped glue between a map view and a PinIndex, in types that compile on every
// platform. On iOS or macOS, build a MapRect from MKMapView's visibleMapRect (origin.x,
// origin.y, size.width, size.height: the same map points) and wrap each PinAnnotation in an
// MKAnnotation whose coordinate is CLLocationCoordinate2D(latitude:longitude:).
import Pins

/// A rectangle of MapKit map points, MKMapRect's layout: the world is `worldWidth` points wide
/// and high, x east from −180°, y south from about 85.05° N.
struct MapRect {
    /// MKMapSize.world.width: 2^28 map points.
    static let worldWidth = 268_435_456.0
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    /// A rect of the given size (map points) centred on a position.
    init(centre longitude: Double, _ latitude: Double, width: Double, height: Double) {
        x = WebMercator.x(longitude: longitude) * Self.worldWidth - width / 2
        y = WebMercator.y(latitude: latitude) * Self.worldWidth - height / 2
        self.width = width
        self.height = height
    }

    /// The zoom to ask pins for when this rect fills a view `viewWidth` points wide
    /// (mapView.visibleMapRect in mapView.bounds.width), within the index's zooms.
    func zoom(viewWidth: Double) -> Double {
        let z = WebMercator.zoom(span: width / Self.worldWidth, pixels: viewWidth)
        return min(max(z, 0), Double(PinOptions.maxZoom) + 0.99)
    }

    /// The visible box in degrees; across the antimeridian its west is east of its east.
    var box: BoundingBox {
        if width >= Self.worldWidth { return BoundingBox.world }
        let east = (x + width) / Self.worldWidth
        return BoundingBox(minLongitude: WebMercator.longitude(x: x / Self.worldWidth),
                           minLatitude: WebMercator.latitude(y: min(1, (y + height) / Self.worldWidth)),
                           maxLongitude: WebMercator.longitude(x: east > 1 ? east - 1 : east),
                           maxLatitude: WebMercator.latitude(y: max(0, y / Self.worldWidth)))
    }

    /// The same centre, `factor` times closer.
    func zoomed(by factor: Double) -> MapRect {
        var r = self
        r.width /= factor; r.height /= factor
        r.x += (width - r.width) / 2; r.y += (height - r.height) / 2
        return r
    }
}

/// What an annotation view needs of a pin. Equal values are the same annotation: after a
/// camera change keep those in both sets, remove the old ones and add the new ones, so a pin
/// that stays is not redrawn.
struct PinAnnotation: Hashable {
    let id: PinID
    let latitude: Double
    let longitude: Double
    let title: String
    let count: Int
    let isCluster: Bool
    /// The disc's diameter in points.
    let diameter: Double

    init(_ pin: Pin) {
        id = pin.id
        latitude = pin.latitude
        longitude = pin.longitude
        title = pin.kind == .cluster ? "\(pin.count) listings" : (pin.count == 1 ? "1 listing" : "\(pin.count) listings here")
        count = pin.count
        isCluster = pin.kind == .cluster
        diameter = pin.diameter
    }
}
