import Testing
@testable import Pins

/// A cursor's text form: every page reached through tokens is the page the cursor gives, and
/// text that is no token is refused, or (a well-formed token of another query) fails the query.
@Suite struct PinCursorTokenTests {
    static let index = PinIndexInvariantTests.index

    @Test func pagingThroughTokensEqualsPagingThroughCursors() throws {
        let pin = try #require(try Self.index.pins(zoom: 5).max { $0.count < $1.count })
        #expect(pin.count > 10)
        var byCursor: [Int64] = [], byToken: [Int64] = []
        var cursor: PinCursor? = nil, token: String? = nil
        repeat {
            let page = try Self.index.leaves(of: pin.id, limit: 7, cursor: cursor)
            byCursor += page.leaves.map(\.id)
            cursor = page.next
        } while cursor != nil
        repeat {
            let page = try Self.index.leaves(of: pin.id, limit: 7, cursor: try token.map { try #require(PinCursor(token: $0)) })
            byToken += page.leaves.map(\.id)
            #expect(page.next.map { PinCursor(token: $0.token) == $0 } ?? true)
            token = page.next?.token
        } while token != nil
        #expect(byToken == byCursor && byToken.count == pin.count)
    }

    @Test func textThatIsNoTokenIsRefused() throws {
        for text in ["", ".", "1", "1.", ".1", "x.1", "1.-1", "1.2.3", "10000000000000000.1", " 1.2"] {
            #expect(PinCursor(token: text) == nil, "\(text)")
        }
        let pin = try Self.index.pins(zoom: 0)[0]
        let foreign = try #require(PinCursor(token: "1.0"))
        #expect(throws: PinError.invalidCursor) { try Self.index.leaves(of: pin.id, limit: 2, cursor: foreign) }
    }
}
