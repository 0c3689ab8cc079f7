import Testing
@testable import QuireModel

/// `<!-- time m:ss -->` anchors: written and read back, clock readings checked.
@Suite struct TimeAnchorTests {
    @Test func clockReadings() {
        #expect(TimeAnchor.clock(0) == "0:00" && TimeAnchor.clock(754) == "12:34" && TimeAnchor.clock(3599) == "59:59")
        #expect(TimeAnchor.clock(3723) == "1:02:03" && TimeAnchor.clock(-5) == "0:00")
        for s in [0, 9, 61, 754, 3600, 3723, 43_200] {
            #expect(TimeAnchor.seconds(of: Substring(TimeAnchor.line(s))) == s)
        }
    }

    @Test func onlyWellFormedAnchorsCount() {
        #expect(TimeAnchor.seconds(of: "<!-- time 12:34 -->  ") == 754)
        for bad in ["<!-- time 12:60 -->", "<!-- time 1:5 -->", "<!-- time 12 -->", "<!-- time :34 -->", "<!-- time 1:02:03:04 -->",
                    "<!-- time 12:34-->", "text <!-- time 1:00 -->", "<!-- time -1:00 -->", "<!-- time 99999:00 -->", "<!-- page 3 -->"] {
            #expect(TimeAnchor.seconds(of: Substring(bad)) == nil, "\(bad)")
        }
    }
}
