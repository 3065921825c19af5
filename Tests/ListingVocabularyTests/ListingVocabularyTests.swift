import ListingVocabulary
import Testing

/// The values every module says listings in, parsed from text and checked where they are made.
@Suite("the listing vocabulary")
struct ListingVocabularyTests {
    @Test("values parse as the command line's options do: ranges, boxes, category lists, own-column conditions")
    func valuesParse() throws {
        #expect(try ValueRange(parsing: " 10 ..50") == ValueRange(lower: 10, upper: 50))
        #expect(try ValueRange(parsing: "..50") == ValueRange(lower: nil, upper: 50))
        #expect(try BoundingBox(parsing: "170,-25,-170,-10") == BoundingBox(minLongitude: 170, minLatitude: -25, maxLongitude: -170, maxLatitude: -10))
        #expect(try CategorySet(parsing: "villa, Store") == CategorySet([ListingCategory.villa, .store]))
        #expect(try PropertyCondition(parsing: "price=..3000") == PropertyCondition("price", .range(ValueRange(lower: nil, upper: 3000))))
        #expect(try PropertyCondition(parsing: "brand=a,b") == PropertyCondition("brand", .oneOf(["a", "b"])))
        for bad in ["10", "a..b", "..", "5..1", "1..2..3"] {
            #expect(throws: InvalidValue.self, "\(bad)") { try ValueRange(parsing: bad) }
        }
        for bad in ["1,2,3", "0,91,1,92", "200,0,201,1", "0,5,1,4", "x,0,1,1"] {
            #expect(throws: InvalidValue.self, "\(bad)") { try BoundingBox(parsing: bad) }
        }
        #expect(throws: InvalidValue.self) { try PropertyCondition(parsing: "=3") }
        #expect(throws: InvalidValue.self) { try PropertyCondition(parsing: "price=") }
    }

    @Test("a box's own check names the field it refuses, as a pin error does")
    func boxValidation() throws {
        try BoundingBox.world.validate()
        for (box, field) in [(BoundingBox(minLongitude: -181, minLatitude: 0, maxLongitude: 1, maxLatitude: 1), "minLongitude"),
                             (BoundingBox(minLongitude: 0, minLatitude: 0, maxLongitude: .nan, maxLatitude: 1), "maxLongitude"),
                             (BoundingBox(minLongitude: 0, minLatitude: 5, maxLongitude: 1, maxLatitude: 4), "minLatitude")] {
            let error = #expect(throws: InvalidValue.self) { try box.validate() }
            #expect(error?.name == field && error?.description.hasPrefix("\(field) = ") == true, "\(String(describing: error))")
        }
    }

    @Test("own columns refuse an empty or repeated name, a count unlike the others', and an infinite number")
    func ownColumns() throws {
        var p = ListingProperties()
        try p.add("price", numbers: [1, nil, 3])
        try p.add("brand", texts: ["a", nil, "a"])
        #expect(p.names == ["price", "brand"] && p.isNumeric("price") == true && p.isNumeric("brand") == false)
        #expect(throws: InvalidValue.self) { try p.add("price", numbers: [1, 2, 3]) }
        #expect(throws: InvalidValue.self) { try p.add("", texts: [nil, nil, nil]) }
        #expect(throws: InvalidValue.self) { try p.add("rooms", numbers: [1, 2]) }
        let infinite = #expect(throws: InvalidValue.self) { try p.add("area", numbers: [1, .infinity, 2]) }
        #expect(infinite?.name == "property area of row 1")
    }
}
