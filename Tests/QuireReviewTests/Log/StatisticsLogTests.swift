@testable import QuireReview
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// The log as statistics read it must hold what the event reader and ``ReviewHistory`` give:
/// the same cards, each with the same events in the same order, the same `ms=` and settings.
@Suite struct StatisticsLogTests {
    /// Each card's events as both readers see them: time, action, `ms=` as a number, `cfg=`, `sched=`.
    struct Seen: Equatable, CustomStringConvertible {
        var time: Timestamp, action: ReviewAction, ms: Int?, cfg: String?, sched: String?, set: SchedulingState? = nil
        var description: String { "\(time) \(action) ms=\(ms.map(String.init) ?? "-") cfg=\(cfg ?? "-") sched=\(sched ?? "-") set=\(set.map { "\($0.fields)" } ?? "-")" }
    }

    static func fromHistory(_ vault: Vault) -> [(CardID, [Seen])] {
        let history = ReviewHistory(vault.reviewLog().events)
        return history.events.keys.sorted().map { card in
            (card, (history.events[card] ?? []).map { e in
                Seen(time: e.time, action: e.action, ms: e.field("ms").flatMap { Int($0) }, cfg: e.field("cfg"), sched: e.field("sched"),
                     set: e.setState)
            })
        }
    }

    static func fromStatisticsLog(_ vault: Vault) -> [(CardID, [Seen])] {
        let log = vault.statisticsLog()
        return log.cards.indices.map { k in
            (log.cards[k], log.events(ofCard: k).map { e in
                let s = log.settingsEvents[e.settings]
                return Seen(time: e.time, action: e.action, ms: e.milliseconds, cfg: s.field("cfg"), sched: s.field("sched"),
                            set: e.setState.map { log.setStates[$0] })
            })
        }
    }

    /// A random log file: grades with IDs, undos by ID and by time (some of another device's
    /// events, some of nothing), resets, suspensions, burials, odd `ms=` values, escaped and
    /// repeated fields, unsafe paths, bad lines, comments, CRLF, a clock set back.
    static func randomLog(_ rng: inout SeededGenerator, device: String, lines: Int, ids: inout [(card: String, id: String, time: String)]) -> [UInt8] {
        // A card whose one grade is undone: it stays, with no events.
        var out: [UInt8] = Array("""
            # quire log v1
            2026-09-01T00:00:00.000Z grade solo\(device) good id=solo\(device)
            2026-09-01T00:01:00.000Z undo solo\(device) of=2026-09-01T00:00:00.000Z of-id=solo\(device)

            """.utf8)
        let cards = (0..<40).map { "card\($0)x" }
        var minute = Int.random(in: 0..<50, using: &rng)
        func time(_ m: Int) -> String {
            let day = 1 + (m / 1440) % 28, hour = (m / 60) % 24, min = m % 60
            return "2026-10-\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour):\(min < 10 ? "0" : "")\(min):00.000Z"
        }
        let msValues = ["1200", "+5", "%35%30", "abc", "99999999999999999999", "-3", "4000000", "", "0"]
        let cfgValues = ["ab12", "cd34", "%61b12", "missing"]
        let paths = ["Biology/cells.md", "a%20b.md", "../escape.md", "/abs.md", ".hidden/x.md", "notes.txt"]
        for n in 0..<lines {
            // Mostly forward; now and then the clock goes back.
            minute += Int.random(in: 0..<4, using: &rng) == 0 ? -Int.random(in: 0..<30, using: &rng) : Int.random(in: 0...20, using: &rng)
            minute = max(0, minute)
            let t = time(minute)
            let card = cards.randomElement(using: &rng) ?? "card0x"
            var line: String
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<60:
                let id = "\(device)\(n)"
                ids.append((card, id, t))
                line = "\(t) grade \(card) \(["again", "hard", "good", "easy"].randomElement(using: &rng) ?? "good") id=\(id)"
                if Bool.random(using: &rng) { line += " ms=\(msValues.randomElement(using: &rng) ?? "1")" }
                if Int.random(in: 0..<3, using: &rng) > 0 { line += " cfg=\(cfgValues.randomElement(using: &rng) ?? "ab12")" }
                if Bool.random(using: &rng) { line += " sched=\(["fsrs", "sm2", "flow"].randomElement(using: &rng) ?? "fsrs")" }
                if Bool.random(using: &rng) { line += " path=\(paths.randomElement(using: &rng) ?? "x.md")" }
                if Int.random(in: 0..<10, using: &rng) == 0 { line += " ms=77" }
                if Int.random(in: 0..<10, using: &rng) == 0 { line = line.replacingOccurrences(of: " id=", with: "  id=") }
            case 60..<72:
                if let target = ids.randomElement(using: &rng) {
                    let c = Bool.random(using: &rng) ? target.card : card
                    line = Bool.random(using: &rng) ? "\(t) undo \(c) of=\(target.time) of-id=\(target.id)" : "\(t) undo \(c) of=\(target.time)"
                } else {
                    line = "\(t) undo \(card) of=\(t)"
                }
            case 72..<78: line = "\(t) reset \(card) path=\(paths.randomElement(using: &rng) ?? "x.md")"
            case 78..<83: line = "\(t) suspend \(card)"
            case 83..<85: line = "\(t) bury \(card) until=2026-12-01T04:00:00Z"
            case 85:
                line = ["\(t) set \(card) id=\(device)s\(n) state=review due=2026-12-0\(n % 9 + 1)T08:00:00Z stability=\(n % 50).25 reps=\(n % 7) lapses=0",
                        "\(t) set \(card) state=learning step=1 difficulty=%35.5 suspended=true path=a%20b.md",
                        "\(t) set \(card) due=2026-12-01T00:00:00Z", "\(t) set \(card) state=review reps=-1"][n % 4]
            case 86..<88: line = "\(t) grade \(card) maybe"
            case 88..<90: line = "\(t) grade \(card) good ms=%zz"
            case 90..<92: line = "garbage line"
            case 92..<94: line = "# a comment"
            case 94..<96: line = "\(t) grade bad.id good"
            default: line = "\(t) grade \(card) good note=caf\u{E9}"
            }
            out += Array(line.utf8)
            if Int.random(in: 0..<50, using: &rng) == 0 { out += [0x20, 0x78, 0x3D, 0xFF] }
            out += Int.random(in: 0..<10, using: &rng) == 0 ? [0x0D, 0x0A] : [0x0A]
        }
        return out
    }

    @Test(arguments: [(UInt64(1), 300), (2, 300), (3, 2_000), (4, 20_000)])
    func sameAsTheEventReaderAndHistory(seed: UInt64, lines: Int) throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            var rng = SeededGenerator(seed: seed)
            var ids: [(card: String, id: String, time: String)] = []
            for device in ["a", "b", "c"] {
                let bytes = Self.randomLog(&rng, device: device, lines: lines, ids: &ids)
                try dir.write(".quire/log/\(device).log", bytes: bytes)
                // The longest is read in parts, one per core.
                if lines > 10_000 { #expect(bytes.count > 1 << 20) }
            }
            let expected = Self.fromHistory(vault), found = Self.fromStatisticsLog(vault)
            #expect(found.map(\.0) == expected.map(\.0))
            for (e, f) in zip(expected, found) where e.1 != f.1 {
                Issue.record("\(e.0): expected \(e.1), found \(f.1)")
                break
            }
            // The case is not empty: undos took events out, and some cards lost them all.
            #expect(expected.reduce(0) { $0 + $1.1.count } > lines)
            #expect(expected.contains { $0.1.isEmpty })
        }
    }

    @Test func eventsGivenDirectly() {
        let card = CardID("abc") ?? CardID("x")
        let events = [
            ReviewEvent(time: at(1), card: card!, action: .grade(.good), fields: [("id", "e1"), ("ms", "900"), ("cfg", "s 1")]),
            ReviewEvent(time: at(2), card: card!, action: .grade(.again), fields: [("id", "e2")]),
            ReviewEvent(time: at(3), card: card!, action: .undo(of: at(2)), fields: [("of-id", "e2")]),
        ]
        let log = StatisticsLog(events)
        #expect(log.cards == [card!])
        #expect(log.events(ofCard: 0).map(\.time) == [at(1)])
        #expect(log.events(ofCard: 0).first?.milliseconds == 900)
        #expect(log.events(ofCard: 0).first.map { log.settingsEvents[$0.settings].field("cfg") } == "s 1")
    }
}
