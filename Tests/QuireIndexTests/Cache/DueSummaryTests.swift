@testable import QuireIndex
import Foundation
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

@Suite struct DueSummaryTests {
    /// Every combination of the fields the due rule reads: the summary's item is due exactly when
    /// the card is, at times before, at and after each of its times.
    static let base = Timestamp(milliseconds: 1_800_000_000_000)

    @Test func anItemIsDueExactlyWhenItsCardIs() {
        let base = Self.base
        let times: [Timestamp?] = [nil, base, Timestamp(milliseconds: base.milliseconds + 3_600_000)]
        let flows: [FlowState?] = [nil] + FlowState.allCases
        var compared = 0
        for state in CardState.allCases {
            for flow in flows {
                for suspended in [false, true] {
                    for due in times {
                        for buried in times {
                            var s = SchedulingState()
                            s.state = state
                            s.flow = flow
                            s.suspended = suspended
                            s.due = due
                            s.buriedUntil = buried
                            let item = DueSummary.Item(s)
                            for offset in [-7_200_000, -1, 0, 1, 1_800_000, 3_600_000, 86_400_000] as [Int64] {
                                let now = Timestamp(milliseconds: base.milliseconds + offset)
                                let dayEnd = Timestamp(milliseconds: base.milliseconds + 43_200_000)
                                #expect((item?.isDue(at: now, dayEnd: dayEnd) ?? false) == s.isDue(at: now, dayEnd: dayEnd),
                                        "\(s.fields) at \(offset)")
                                compared += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(compared == 4 * 5 * 2 * 3 * 3 * 7)
    }

    @Test func encodingRoundTrips() throws {
        let items = [
            DueSummary.Item(intraday: true, due: Timestamp(milliseconds: 5), buriedUntil: nil),
            DueSummary.Item(intraday: false, due: nil, buriedUntil: Timestamp(milliseconds: -3)),
            DueSummary.Item(intraday: false, due: Timestamp(milliseconds: .max), buriedUntil: Timestamp(milliseconds: .min)),
        ]
        let bytes = DueSummary(items: items).encoded()
        let back = try bytes.withUnsafeBytes { raw in try DueSummary.decode(raw) }
        #expect(back.items == items)
        // A flag byte with unknown bits, a short item and trailing bytes are refused.
        for bad in [[1, 8], Array(bytes.dropLast()), bytes + [0]] as [[UInt8]] {
            #expect(throws: IndexCacheError.self) { try bad.withUnsafeBytes { raw in try DueSummary.decode(raw) } }
        }
    }

    /// The sample vault (learning, buried, suspended, archived and new cards) plus StudyFlow cards:
    /// the section written with the cache counts what the index counts, at every hour of two weeks.
    @Test func theCacheSectionCountsWhatTheIndexCounts() throws {
        try withTempDir { dir in
            let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleVault").path
            try FileManager.default.copyItem(atPath: sample, toPath: dir.full("vault"))
            try? dir.remove("vault/.quire/cache")
            try dir.write("vault/Flow.md", """
                ---
                quire:
                  flowaaaaaaa1: {state: new, flow: learning}
                  flowaaaaaaa2: {state: review, flow: inactive, due: 2026-11-20T00:00:00Z}
                  flowaaaaaaa3: {state: review, flow: reviewing, due: 2026-11-29T00:00:00Z}
                ---
                a :: b ^flowaaaaaaa1
                c :: d ^flowaaaaaaa2
                e :: f ^flowaaaaaaa3
                """)
            let vault = try Vault(root: dir.full("vault"))
            let cache = try #require(vault.cache)
            #expect(DueSummary.load(from: cache) == nil, "no cache yet")
            let index = vault.index()
            let summary = try #require(DueSummary.load(from: cache))
            #expect(summary.items.count > 10)
            var dueSomewhere = 0
            for hour in 0..<(14 * 24) {
                let now = Timestamp(milliseconds: Timestamp(iso8601: "2026-11-18T00:00:00Z")!.milliseconds + Int64(hour) * 3_600_000)
                let dayEnd = Timestamp(milliseconds: now.milliseconds + 6 * 3_600_000)
                let expected = index.notes.filter { !$0.archived }.flatMap(\.cards).filter { $0.isDue(at: now, dayEnd: dayEnd) }.count
                #expect(summary.dueCount(at: now, dayEnd: dayEnd) == expected, "at \(now)")
                #expect(DueSummary.dueCount(in: cache, at: now, dayEnd: dayEnd) == expected, "at \(now)")
                dueSomewhere = max(dueSomewhere, expected)
            }
            #expect(dueSomewhere > 5)

            // A damaged section is not read: its checksum no longer matches.
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache.path)))
            let section = try #require(try IndexCache.sections(ofFile: bytes, syntaxDigest: cache.syntax.digest)["due"])
            bytes[section.offset + 1] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: cache.path))
            #expect(DueSummary.load(from: cache) == nil)
            #expect(DueSummary.dueCount(in: cache, at: Self.base, dayEnd: Self.base) == nil)
        }
    }
}
