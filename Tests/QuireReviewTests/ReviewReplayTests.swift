@testable import QuireReview
import Foundation
import Testing
import QuireModel
import QuireScheduling
@testable import QuireParsing
@testable import QuireTestSupport

@Suite struct ReviewReplayTests {
    private static let config = """
        decks:
          Languages:
            scheduler: sm2
            buttons: 3
          Habits:
            scheduler: flow
          Biology/Slow:
            desired_retention: 0.8
            learning_steps: []
            fuzz: false

        """

    private static let notes: [String: String] = [
        "Biology/cells.md": "---\ntitle: Cells\n---\nQ: Powerhouse?\nA: Mitochondrion.\n\nRibosome :: protein synthesis.\n\nThe {{c1::nucleus}} holds {{c2::DNA}}.\n",
        "Biology/Slow/plants.md": "Q: Green pigment?\nA: Chlorophyll.\n\nXylem ::: water transport tissue\n",
        "Languages/es.md": "---\ntags: [es]\n---\nperro :: dog\n\ngato :: cat\n\nQ: Hola?\nA: Hello.\n",
        "Habits/flow.md": "Q: Stretch?\nA: Daily.\n\nQ: Read?\nA: Twenty pages.\n",
    ]

    /// Many random sessions through the real writer (grades, undos, suspensions, burials, resets,
    /// StudyFlow moves, on four decks with three schedulers), then: replay finds nothing to change,
    /// and replaying into notes stripped of every scheduling line gives back the same bytes.
    @Test(arguments: [1, 2, 3])
    func replayOfAnyLogGivesTheSameStateAsLiveGrading(seed: UInt64) throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, config: Self.config, notes: Self.notes)
            let writer = try v.writer()
            var rng = SeededGenerator(seed: seed)
            let paths = Self.notes.keys.sorted()
            var time = at(1)
            var graded = 0
            for _ in 0..<300 {
                time = Timestamp(milliseconds: time.milliseconds + Int64.random(in: 1_000...(4 * 86_400_000), using: &rng))
                let path = paths[Int.random(in: 0..<paths.count, using: &rng)]
                let cards = try v.cards(path)
                let card = cards[Int.random(in: 0..<cards.count, using: &rng)]
                let roll = Int.random(in: 0..<100, using: &rng)
                let action: ReviewAction
                switch roll {
                case 0..<70:
                    let ratings: [Rating] = path.hasPrefix("Languages") ? [.again, .good, .easy] : Rating.allCases
                    action = .grade(ratings[Int.random(in: 0..<ratings.count, using: &rng)])
                case 70..<78:
                    if graded > 0, (try? writer.undoLast(at: time)) != nil { continue }
                    action = .grade(.good)
                case 78..<82: action = .suspend
                case 82..<86: action = .unsuspend
                case 86..<89: action = .bury(until: Timestamp(milliseconds: time.milliseconds + 86_400_000))
                case 89..<91: action = .reset
                case 91..<94: action = .promote
                case 94..<97: action = .demote
                default: action = .deactivate
                }
                _ = try writer.record([.init(card: card.id, action: action, answerMilliseconds: 1000)], inNote: path, at: time)
                if case .grade = action { graded += 1 }
            }
            #expect(graded > 150)
            let replay = v.replay()
            #expect(replay.differences.isEmpty, "\(replay.differences.map { "\($0.path): \($0.card): \($0.summary)" })")
            #expect(replay.diagnostics.isEmpty)
            #expect(replay.replayedCards > 10)

            // Strip every scheduling line and rebuild the notes from the log alone.
            var live: [String: [UInt8]] = [:]
            for path in paths {
                live[path] = try dir.read(path)
                try dir.write(path, Self.notes[path] ?? "")
            }
            let rebuilt = v.replay()
            let plan = rebuilt.plan(vault: v.vault)
            #expect(plan.diagnostics.isEmpty)
            #expect(v.vault.apply(plan.edits).diagnostics.isEmpty)
            for path in paths {
                let now = try dir.read(path)
                // Line order under `quire:` follows first grading, so compare states, then bytes when
                // the card order agrees.
                let a = NoteParser.parse(now, path: path).note?.cards.map { $0.schedule } ?? []
                let b = NoteParser.parse(live[path] ?? [], path: path).note?.cards.map { $0.schedule } ?? []
                #expect(a == b, "\(path)")
            }
        }
    }

    @Test func changingTheSettingsLaterDoesNotChangeThePast() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let path = "Biology/organelles.md"
            let card = try #require(v.cards(path).first)
            let w = try v.writer()
            for day in [1, 2, 6, 14] { _ = try w.grade(card.id, .good, inNote: path, at: at(day)) }
            try dir.write(".quire/config.yaml", "desired_retention: 0.7\nscheduler: sm2\n")
            #expect(v.replay().differences.isEmpty)
            // Without the snapshot, the current settings are used and the difference is reported.
            let snapshot = SettingsSnapshot.path(id: SettingsSnapshot.id(of: SchedulerSettings()))
            try FileManager.default.removeItem(atPath: dir.full(snapshot))
            let replay = v.replay()
            #expect(replay.differences.count == 1)
            #expect(printed(replay.diagnostics) == ["\(snapshot): warning: settings snapshot missing; replayed with the current settings"])
            #expect(printed(replay.checkDiagnostics).first?.hasPrefix("Biology/organelles.md:10:1: warning: card \(card.id): scheduling line differs from the review log (") == true)
        }
    }

    @Test func cardsWithoutHistoryAreLeftAloneAndVanishedCardsAreNoted() throws {
        try withTempDir { dir in
            let hand = "---\nquire:\n  handmade0001: {state: review, due: 2026-12-01, reps: 3, lapses: 0}\n---\nQ: Kept? ^handmade0001\nA: Yes.\n\nQ: Gone soon?\nA: Yes.\n"
            let v = try GradingVault.make(dir, notes: ["n.md": hand])
            let cards = try v.cards("n.md")
            _ = try v.writer().grade(cards[1].id, .good, inNote: "n.md", at: at(20))
            try dir.write("n.md", "---\nquire:\n  handmade0001: {state: review, due: 2026-12-01, reps: 3, lapses: 0}\n---\nQ: Kept? ^handmade0001\nA: Yes.\n")
            let replay = v.replay()
            #expect(replay.differences.isEmpty)
            #expect(replay.missingCards.map(\.card) == [cards[1].id])
            #expect(replay.missingCards.first?.lastPath == "n.md")
            #expect(printed(replay.checkDiagnostics) == ["n.md: note: card \(cards[1].id) has reviews in the log but is no longer in the vault"])
        }
    }
}
