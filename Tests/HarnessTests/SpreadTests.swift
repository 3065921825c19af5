import Harness
import Testing

@Suite struct SpreadTests {
    @Test func medianOfOddAndEvenCounts() throws {
        let odd = try #require(Spread([3, 1, 2]))
        #expect(odd == Spread(median: 2, min: 1, max: 3))
        let even = try #require(Spread([4, 1, 2, 10]))
        #expect(even == Spread(median: 3, min: 1, max: 10))
        #expect(Spread([]) == nil)
    }
}
