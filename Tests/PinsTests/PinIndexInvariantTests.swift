import Foundation
import Testing
@testable import Pins
import TestSupport

@Suite struct PinIndexInvariantTests {
    static let scenario = PinScenario(seed: 42)
    static let index = scenario.index()

    /// listing id → pin id at each zoom, through the leaves of every pin (which also checks
    /// that each listing is in exactly one pin).
    static let membership: [[Int64: PinID]] = (0...PinOptions.maxZoom).map { z in
        var m: [Int64: PinID] = [:]
        for pin in try! index.pins(zoom: Double(z)) {
            for leaf in index.allLeaves(pin.id) {
                precondition(m[leaf.id] == nil, "listing \(leaf.id) in two pins at zoom \(z)")
                m[leaf.id] = pin.id
            }
        }
        return m
    }

    @Test func everyListingIsInExactlyOnePinAtEveryZoom() throws {
        let all = Set(Self.scenario.ids)
        for z in 0...PinOptions.maxZoom {
            let pins = try Self.index.pins(zoom: Double(z))
            var seen: [Int64] = []
            for pin in pins {
                let leaves = Self.index.allLeaves(pin.id, limit: 5)
                #expect(leaves.count == pin.count)
                seen += leaves.map(\.id)
            }
            #expect(seen.count == all.count, "zoom \(z)")
            #expect(Set(seen) == all, "zoom \(z)")
        }
        // Leaves pages tile the pin: no gaps, no repeats, for several page sizes.
        let top = try Self.index.pins(zoom: 0)
        for limit in [1, 3, 1000] {
            let ids = top.flatMap { Self.index.allLeaves($0.id, limit: limit).map(\.id) }
            #expect(ids.count == Set(ids).count && Set(ids) == all)
        }
    }

    @Test func pinsNestAcrossZooms() {
        for z in 1...PinOptions.maxZoom {
            let fine = Self.membership[z], coarse = Self.membership[z - 1]
            var parentOf: [PinID: PinID] = [:]
            for (listing, pin) in fine {
                let p = coarse[listing]!
                if let q = parentOf[pin] { #expect(q == p, "pin \(pin) at zoom \(z) lies in two pins at \(z - 1)") }
                parentOf[pin] = p
            }
        }
    }

    @Test func idsNameGroupsAcrossZoomsAndRebuilds() throws {
        // The same id always means the same set of listings, whatever the zoom.
        var setOfID: [PinID: Set<Int64>] = [:]
        for z in 0...PinOptions.maxZoom {
            var groups: [PinID: Set<Int64>] = [:]
            for (listing, pin) in Self.membership[z] { groups[pin, default: []].insert(listing) }
            for (id, set) in groups {
                if let old = setOfID[id] { #expect(old == set, "id \(id) names two groups") }
                setOfID[id] = set
            }
        }
        // One id per distinct set.
        var idOfSet: [Set<Int64>: PinID] = [:]
        for (id, set) in setOfID {
            if let other = idOfSet[set] { #expect(other == id) }
            idOfSet[set] = id
        }
        // A rebuild from shuffled rows gives the very same pins at every zoom.
        var g = SplitMix64(seed: 3)
        var order = Array(0..<Self.scenario.count)
        order.shuffle(using: &g)
        let shuffled = Self.scenario.index(order: order)
        for z in 0...PinOptions.maxZoom {
            #expect(try shuffled.pins(zoom: Double(z)) == Self.index.pins(zoom: Double(z)), "zoom \(z)")
        }
        // Another seed changes the positions (and so the ids), deterministically.
        let other = try PinIndex(listings: Self.scenario.listings(),
                                 options: PinOptions(privacy: .displaced(try PrivacyMask(insecureTestSeed: 99))))
        #expect(try other.pins(zoom: 12) != Self.index.pins(zoom: 12))
    }

    @Test func expansionZoomIsTheFirstZoomThatSplitsThePin() throws {
        var checked = 0
        for z in 0...PinOptions.maxZoom {
            for pin in try Self.index.pins(zoom: Double(z)) {
                let ez = try Self.index.expansionZoom(of: pin.id)
                #expect(ez == pin.expansionZoom)
                if pin.sameLocation { #expect(ez == nil); continue }
                // Brute force: the first deeper zoom at which this id is no longer a pin.
                var first = PinOptions.maxZoom + 1
                for z2 in (z + 1)..<(PinOptions.maxZoom + 1) where !Set(Self.membership[z2].values).contains(pin.id) {
                    first = z2; break
                }
                #expect(ez == first, "pin \(pin.id) at zoom \(z)")
                #expect(pin.zooms.upperBound == first - 1 || first == PinOptions.maxZoom + 1)
                // Its children are exactly the pins its listings are in at that zoom.
                let kids = try Self.index.children(of: pin.id)
                #expect(kids.count >= 2)
                #expect(kids.reduce(0) { $0 + $1.count } == pin.count)
                if first <= PinOptions.maxZoom {
                    let leaves = Self.index.allLeaves(pin.id).map(\.id)
                    #expect(Set(leaves.map { Self.membership[first][$0]! }) == Set(kids.map(\.id)))
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// The pins of `index` at `zoom` as points of a 256·2^z-point world (independent pixel
    /// maths, Foundation).
    static func points(_ pins: [Pin], zoom z: Int) -> [(x: Double, y: Double)] {
        let world = 256 * pow(2, Double(z))
        return pins.map { p in
            let s = sin(p.latitude * .pi / 180)
            return ((p.longitude / 360 + 0.5) * world, (0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi) * world)
        }
    }

    @Test func drawnDiscsNeverOverlap() throws {
        var clusters = 0
        for z in 0...PinOptions.maxZoom {
            let pins = try Self.index.pins(zoom: Double(z))
            let at = Self.points(pins, zoom: z)
            for i in pins.indices {
                #expect(pins[i].diameter >= 25 && pins[i].diameter <= 50)
                for j in pins.indices where j > i {
                    let d = hypot(at[i].x - at[j].x, at[i].y - at[j].y)
                    #expect(d >= (pins[i].diameter + pins[j].diameter) / 2 - 1e-6, "zoom \(z): pins \(pins[i].id) and \(pins[j].id) overlap")
                }
            }
            #expect(try Self.index.overlapRate(zoom: z) == 0)
            clusters += pins.filter { $0.kind == .cluster }.count
        }
        #expect(clusters > 50)
        // The diameter rule: square root of the count between 1 and the saturation count.
        let o = PinOptions(privacy: .disabled)
        #expect(o.diameter(count: 1) == 25 && o.diameter(count: 1000) == 50 && o.diameter(count: 5000) == 50)
        #expect(abs(o.diameter(count: 250) - (25 + 25 * (249.0 / 999).squareRoot())) < 1e-12)
    }

    /// An app that sizes discs by the counts in view (25–50 pt by the square root of the count
    /// relative to the largest in view) draws discs larger than the pins' own: with `.count`
    /// sizing some overlap at city zooms; with `.view` every two pins lie at least 50 pt apart,
    /// so no viewport's sizing overlaps, and the pins still nest and hold every listing once.
    @Test func viewSizingKeepsDiscsApartForAnySizeUpToTheLargest() throws {
        let s = Self.scenario
        let view = try PinIndex(listings: s.listings(), options: PinOptions(privacy: .displaced(PinScenario.mask), discSizing: .view))
        func relativeOverlaps(_ index: PinIndex, zoom z: Int) throws -> Int {
            let pins = try index.pins(zoom: Double(z))
            let at = Self.points(pins, zoom: z)
            let most = Double(pins.map(\.count).max() ?? 1)
            let d = pins.map { 25 + 25 * (Double($0.count) / most).squareRoot() }
            var hits = 0
            for i in pins.indices {
                for j in pins.indices where j > i && hypot(at[i].x - at[j].x, at[i].y - at[j].y) < (d[i] + d[j]) / 2 { hits += 1 }
            }
            return hits
        }
        var countSized = 0
        for z in 0...PinOptions.maxZoom {
            let pins = try view.pins(zoom: Double(z))
            let at = Self.points(pins, zoom: z)
            #expect(pins.allSatisfy { $0.diameter == 50 })
            #expect(pins.reduce(0) { $0 + $1.count } == s.count)
            for i in pins.indices {
                for j in pins.indices where j > i {
                    #expect(hypot(at[i].x - at[j].x, at[i].y - at[j].y) >= 50 - 1e-6, "zoom \(z): pins \(pins[i].id) and \(pins[j].id) closer than 50 pt")
                }
            }
            #expect(try relativeOverlaps(view, zoom: z) == 0)
            countSized += try relativeOverlaps(Self.index, zoom: z)
        }
        #expect(countSized > 0, "the scenario should show why the rule exists")
        #expect(try view.pins(zoom: 14).count < Self.index.pins(zoom: 14).count)
    }

    /// Three single listings in a row at zoom 16, 20 and 23 px apart: A–B and B–C overlap
    /// (25 pt discs), A–C do not. A round merges a pin once, so the deeper overlap A–B merges
    /// and B–C waits; A+B's disc (25.8 pt, centred 33 px from C) then misses C's. Merging every
    /// overlapping pair of a round would have made one pin of three.
    @Test func aChainOfOverlapsMergesOnlyWhatTheDiscsNeed() throws {
        let world = 256 * pow(2, 16.0)
        var l = PinListings()
        for (i, px) in [0.0, 20, 43].enumerated() {
            l.append(id: Int64(i), longitude: 127 + px / world * 360, latitude: 37.5, category: 0)
        }
        let index = try PinIndex(listings: l, options: PinOptions(privacy: .disabled))
        #expect(try index.pins(zoom: 17).count == 3)
        #expect(try index.pins(zoom: 16).map(\.count).sorted() == [1, 2])
        #expect(try index.overlapRate(zoom: 16) == 0)
        #expect(try index.pins(zoom: 15).count == 1, "10 and 11.5 px apart: within the 12.5 px radius")
    }

    @Test func buildingsAreOnePinAtEveryZoom() throws {
        let s = Self.scenario
        var byKey: [LocationKey: [Int64]] = [:]
        for i in 0..<s.count { if let k = s.keys[i] { byKey[k, default: []].append(s.ids[i]) } }
        // The three unkeyed listings at one true coordinate are one location too.
        byKey[LocationKey(longitude: 127.05, latitude: 37.55)] = Array(s.ids.suffix(3))
        #expect(byKey.count == 6)
        for (_, ids) in byKey {
            for z in 0...PinOptions.maxZoom { #expect(Set(ids.map { Self.membership[z][$0]! }).count == 1) }
            let pin = try Self.index.pin(id: Self.membership[PinOptions.maxZoom][ids[0]]!)
            #expect(pin.kind == .building && pin.sameLocation && pin.expansionZoom == nil && pin.count == ids.count)
            #expect(try Self.index.children(of: pin.id).isEmpty)
            let leaves = Self.index.allLeaves(pin.id)
            #expect(Set(leaves.map(\.longitude)).count == 1 && Set(leaves.map(\.latitude)).count == 1)
        }
    }

    @Test func aStripOfBuildingsBecomesSeveralPinsOfBoundedSpread() throws {
        let s = Self.scenario
        let stripIDs = Set(s.ids[(6 * 120)..<(6 * 120 + 80)])
        // At 37.5° a zoom-15 pixel is 3.8 m: the 800 m strip spans 210 px, beyond the 120 px cap.
        for z in 15...18 {
            let world = 256 * pow(2, Double(z))
            var pinsOnStrip = Set<PinID>()
            for id in stripIDs { pinsOnStrip.insert(Self.membership[z][id]!) }
            #expect(pinsOnStrip.count >= 2, "zoom \(z)")
            for id in pinsOnStrip {
                let p = try Self.index.pin(id: id)
                let w = (p.bbox.maxLongitude - p.bbox.minLongitude) / 360 * world
                let h = (p.bbox.maxLatitude - p.bbox.minLatitude) / 360 * world / cos(37.52 * .pi / 180)
                #expect(hypot(w, h) <= 120 * 1.01, "zoom \(z): spread \(hypot(w, h)) px")
            }
        }
    }

    @Test func aggregatesMatchBruteForce() throws {
        for z in [0, 8, 12, 15, 18, 22] {
            for pin in try Self.index.pins(zoom: Double(z)) {
                let leaves = Self.index.allLeaves(pin.id)
                #expect(pin.medianDeposit == median(leaves.compactMap(\.deposit)))
                #expect(pin.medianMonthlyRent == median(leaves.compactMap(\.monthlyRent)))
                for code in UInt8(0)..<16 { #expect(pin.categoryCounts[code] == leaves.filter { $0.category == code }.count) }
                let lon = leaves.map(\.longitude).reduce(0, +) / Double(leaves.count)
                #expect(abs(pin.longitude - lon) < 1e-9)
                // The box (mapped back from Mercator) holds every leaf, to within 1e-9°.
                #expect(leaves.allSatisfy {
                    $0.longitude >= pin.bbox.minLongitude - 1e-9 && $0.longitude <= pin.bbox.maxLongitude + 1e-9
                        && $0.latitude >= pin.bbox.minLatitude - 1e-9 && $0.latitude <= pin.bbox.maxLatitude + 1e-9
                })
                #expect(pin.listingID == (pin.count == 1 ? leaves[0].id : nil))
            }
        }
    }
}

func median(_ v: [Double]) -> Double? {
    if v.isEmpty { return nil }
    let s = v.sorted(), m = s.count / 2
    return s.count % 2 == 1 ? s[m] : s[m - 1] + (s[m] - s[m - 1]) / 2
}
