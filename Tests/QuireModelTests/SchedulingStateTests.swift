import Testing
@testable import QuireModel

@Suite struct SchedulingStateTests {
    @Test(arguments: [
        (12.4021, "12.4021"), (12.4, "12.4"), (12.40, "12.4"), (2.5, "2.5"), (5.17333, "5.1733"),
        (5.17335, "5.1734"), (1.0, "1"), (0.0, "0"), (-1.25, "-1.25"), (-0.5, "-0.5"), (0.00004, "0"),
        (0.99996, "1"), (100.0001, "100.0001"), (-0.00004, "0"), (3.0500, "3.05"),
    ])
    func formatNumbers(value: Double, expected: String) {
        #expect(SchedulingState.format(value) == expected)
    }

    @Test func formatNonFinite() {
        #expect(SchedulingState.format(.nan) == "0")
        #expect(SchedulingState.format(.infinity) == "0")
        #expect(SchedulingState.format(-.infinity) == "0")
    }

    @Test func newStateWritesOnlyStateRepsLapses() {
        let s = SchedulingState()
        #expect(s.fields.map(\.key) == ["state", "reps", "lapses"])
        #expect(s.fields.map(\.value) == ["new", "0", "0"])
    }

    @Test func everyFieldInTheFixedOrder() {
        var s = SchedulingState()
        s.fingerprint = Fingerprint(bits: 0x3c9e_0f51_aa72_d418)
        s.state = .relearning
        s.step = 1
        s.due = Timestamp(year: 2026, month: 11, day: 25, hour: 9)
        s.lastReview = Timestamp(year: 2026, month: 11, day: 13, hour: 9, millisecond: 500)
        s.stability = 12.40211
        s.difficulty = 5.1733
        s.ease = 2.5
        s.interval = 12
        s.reps = 4
        s.lapses = 1
        s.flow = .reviewing
        s.streak = 3
        s.attempts = 7
        s.suspended = true
        s.buriedUntil = Timestamp(year: 2026, month: 11, day: 26)
        s.unknownFields = [("custom", "\"x y\"")]
        #expect(s.fields.map(\.key) == SchedulingState.fieldOrder + ["custom"])
        #expect(s.fields.map(\.value) == [
            "3c9e0f51aa72d418", "relearning", "1", "2026-11-25T09:00:00Z", "2026-11-13T09:00:00Z", "12.4021",
            "5.1733", "2.5", "12", "4", "1", "reviewing", "3", "7", "true", "2026-11-26T00:00:00Z", "\"x y\"",
        ])
    }

    @Test func availability() {
        let now = Timestamp(year: 2026, month: 11, day: 22, hour: 12)
        var s = SchedulingState()
        #expect(s.isAvailable(at: now))
        s.buriedUntil = now.adding(seconds: 1)
        #expect(!s.isAvailable(at: now))
        s.buriedUntil = now
        #expect(s.isAvailable(at: now))
        s.suspended = true
        #expect(!s.isAvailable(at: now))
    }

    @Test func equalityIncludesUnknownFields() {
        var a = SchedulingState(), b = SchedulingState()
        #expect(a == b)
        a.unknownFields = [("x", "1")]
        #expect(a != b)
        b.unknownFields = [("x", "1")]
        #expect(a == b)
        b.lapses = 2
        #expect(a != b)
    }

    /// The stored form's numbers are what their four-decimal text reads back as, bit for bit,
    /// without making the text.
    @Test func roundingIsWhatTheTextReadsBackAs() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.00004, -0.00004, 0.00005, 1.23455, 2.5, 36500, 123_456.78915, -7.77775, 1e-9]
        for _ in 0..<20_000 { values.append(Double.random(in: -1000...100_000, using: &generator)) }
        for _ in 0..<5_000 { values.append(Double.random(in: 0...20, using: &generator)) }
        for v in values {
            let viaText = Double(SchedulingState.format(v)) ?? .nan
            let direct = SchedulingState.rounded(v)
            #expect(viaText.bitPattern == direct.bitPattern, "\(v): \(viaText) vs \(direct)")
        }
    }
}
