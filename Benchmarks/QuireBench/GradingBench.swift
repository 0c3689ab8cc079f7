import QuireSupport
#if canImport(Glibc)
import Glibc
#endif
import QuireModel
import QuireScheduling
import QuireYAML
import QuireSystem
import QuireParsing
import QuireReview
import QuireVault

/// Benchmarks of grading and replay (`QuireBench --grading`), in process, timed with
/// `clock_gettime(CLOCK_MONOTONIC)`:
///
/// - one FSRS step, fuzz on and off, over a deterministic sequence of chained reviews;
/// - `ReviewWriter.grade` end to end on a realistic note, against the bare I/O it cannot avoid
///   (one fsynced log append and one atomic note replace), the two interleaved;
/// - parsing and folding a review log of 100,000 grades.
///
/// Every input is generated from fixed seeds, so two runs do the same work.
enum GradingBench {
    /// Runs the three benchmarks, printing a table for each.
    static func run() throws {
        print("Quire grading benchmark — \(System.describe())")
        print("release build, clock_gettime(CLOCK_MONOTONIC)\n")
        fsrsStep()
        try gradeEndToEnd()
        replay()
    }

    // MARK: - One FSRS step

    /// Cards in the FSRS step benchmark.
    static let stepCards = 50_000
    /// Chained reviews per card (50,000 × 20 = 1,000,000 steps).
    static let stepReviews = 20

    /// Times `FSRSScheduler.next` over the same review sequence with fuzz on and off.
    static func fsrsStep() {
        var rng = SplitMix64(seed: 0x5155_4952_4531)
        let ids = (0..<stepCards).map { _ in CardID(derivedHash: rng.next()) }
        let steps = stepCards * stepReviews
        let ratings = (0..<steps).map { _ in rng.rating() }
        // How long after the due time the card is answered: up to half a day.
        let delays = (0..<steps).map { _ in Int64(rng.next() % 43_200_000) }
        let start = Timestamp(year: 2027, month: 1, day: 1, hour: 9)
        let runs = 5

        print("One FSRS step — FSRSScheduler.next, \(steps) steps (\(stepCards) cards × \(stepReviews) chained reviews), median of \(runs)")
        print("  " + pad("measurement", 36) + pad("per step", 12) + pad("steps/s", 14) + "checksum")
        var fuzzOff = SchedulerSettings()
        fuzzOff.fuzz = false
        for (name, settings) in [("fuzz on", SchedulerSettings()), ("fuzz off", fuzzOff)] {
            let scheduler = FSRSScheduler(settings: settings)
            var checksum: Int64 = 0
            let seconds = medianSeconds(runs) {
                var states = [SchedulingState?](repeating: nil, count: stepCards)
                var times = [Timestamp](repeating: start, count: stepCards)
                var sum: Int64 = 0
                let begin = monotonicNanoseconds()
                for review in 0..<stepReviews {
                    for card in 0..<stepCards {
                        let i = review * stepCards + card
                        let new = scheduler.next(states[card], rating: ratings[i], at: times[card], card: ids[card])
                        let due = new.due ?? times[card]
                        sum &+= Int64(new.interval ?? new.step ?? 0) &+ due.milliseconds
                        times[card] = Timestamp(milliseconds: due.milliseconds + delays[i])
                        states[card] = new
                    }
                }
                let elapsed = monotonicNanoseconds() - begin
                checksum = sum
                return elapsed
            }
            let ns = seconds * 1e9 / Double(steps)
            print("  " + pad(name, 36) + pad(String(format1: ns) + " ns", 12)
                  + pad(String(Int(Double(steps) / seconds)), 14) + String(checksum))
        }
        print("  target: < 1 µs per step\n")
    }

    // MARK: - Grade end to end

    /// Grades timed (and baselines of each kind).
    static let gradeCount = 300
    /// Untimed rounds of each before the timed ones.
    static let warmUpRounds = 5

    /// Times `ReviewWriter.grade` against the bare I/O of a grade, interleaved, in a fresh vault
    /// under `/tmp`.
    static func gradeEndToEnd() throws {
        let root = try makeTemporaryFolder()
        defer { _ = system("rm -rf '\(root)'") }
        let io = FileIO()
        let vault: Vault
        do { vault = try Vault.initialize(root, io: io) } catch { throw BenchError("vault: \(error)") }
        let config = vault.config().config
        let writer = ReviewWriter(vault: vault, config: config, device: "benchdev")

        // The graded note and its twin for the baseline, with the same bytes.
        let notePath = "Biology/Cells/organelles.md"
        let baselineNote = root + "/Baseline/Cells/organelles.md"
        // Outside the log folder: the vault has one device, whose log the grades append to.
        let baselineLog = vault.fullPath(Vault.folderName + "/baseline.log")
        let baselineJournal = vault.fullPath(Vault.folderName + "/baseline-journal")
        let (bytes, cards) = try seededNote(path: notePath)
        do {
            try io.makeDirectories(root + "/Biology/Cells")
            try io.makeDirectories(root + "/Baseline/Cells")
            try io.replace(vault.fullPath(notePath), with: bytes, expected: nil)
            try io.replace(baselineNote, with: bytes, expected: nil)
        } catch {
            throw BenchError("writing the note: \(error)")
        }
        // The baseline replaces the note with a same-size variant and back (one digit differs), so
        // every replace writes as many bytes as a grade does.
        guard let digit = bytes.firstIndex(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "8") }) else {
            throw BenchError("the note has no digit to vary")
        }
        var variant = bytes
        variant[digit] += 1
        var baselineCurrent = bytes
        // The log line the baseline appends: a grade line as the writer formats it.
        let logLine = Array((ReviewLog.format(ReviewEvent(
            time: Timestamp(year: 2027, month: 1, day: 1, hour: 9), card: cards[0], action: .grade(.good),
            fields: [("sched", "fsrs"), ("cfg", SettingsSnapshot.id(of: config.settings)), ("path", notePath)]
        )) + "\n").utf8)

        let start = Timestamp(year: 2027, month: 1, day: 1, hour: 9)
        var wrote = 0
        var journalLine: [UInt8] = []
        var known: Note?
        /// One grade; `session` passes the note the previous grade returned, as the review screen does.
        func grade(_ round: Int, session: Bool) throws {
            let card = cards[round % cards.count]
            let at = Timestamp(milliseconds: start.milliseconds + Int64(round) * 86_400_000)
            do {
                // As `quire grade` does: the note comes from the log's last line for the card.
                let path = session ? notePath : vault.lastLoggedPath(of: card) ?? notePath
                let outcome = try writer.grade(card, .good, inNote: path, at: at, known: session ? known : nil)
                if outcome.wrote { wrote += 1 }
                known = outcome.noteAfter
            } catch {
                throw BenchError("grade: \(error)")
            }
        }
        func baseline(journal: Bool) throws {
            let next = baselineCurrent == bytes ? variant : bytes
            do {
                try io.append(baselineLog, logLine)
                try io.replace(baselineNote, with: next, expected: baselineCurrent)
                if journal { try io.append(baselineJournal, journalLine) }
            } catch {
                throw BenchError("baseline: \(error)")
            }
            baselineCurrent = next
        }

        // Warm up: the settings snapshot, the log header, the page cache. The undo journal's mean
        // line length sets the size of the baseline's journal append.
        for round in 0..<warmUpRounds { try grade(round, session: false) }
        let journalSize = io.stamp(vault.fullPath(UndoJournal.path)).map { Int($0.size) } ?? 0
        journalLine = Array(repeating: UInt8(ascii: "x"), count: max(1, journalSize / warmUpRounds - 1)) + [10]
        for _ in 0..<warmUpRounds { try baseline(journal: true) }

        var gradeTimes: [Double] = [], sessionTimes: [Double] = [], bareTimes: [Double] = [], journalTimes: [Double] = []
        var round = warmUpRounds
        for i in 0..<gradeCount {
            // Rotate the order, so that whatever one kind of write leaves behind falls on each.
            for k in 0..<4 {
                let kind = (i + k) % 4
                // A session grade follows another grade of this note, as in a review session.
                if kind == 1 { try grade(round, session: false); round += 1 }
                let begin = monotonicNanoseconds()
                switch kind {
                case 0: try grade(round, session: false); round += 1
                case 1: try grade(round, session: true); round += 1
                case 2: try baseline(journal: false)
                default: try baseline(journal: true)
                }
                let us = Double(monotonicNanoseconds() - begin) / 1e3
                switch kind {
                case 0: gradeTimes.append(us)
                case 1: sessionTimes.append(us)
                case 2: bareTimes.append(us)
                default: journalTimes.append(us)
                }
            }
        }
        guard wrote == round else {
            throw BenchError("only \(wrote) of \(round) grades wrote the note")
        }

        print("Grade end to end — ReviewWriter.grade(.good), N = \(gradeCount), one day apart, interleaved with the baselines")
        print("  note: \(bytes.count) B, \(cards.count) cards with a scheduling line each; vault in a mkdtemp folder under /tmp")
        print("  " + pad("measurement", 58) + pad("median", 12) + pad("p90", 12) + "× baseline")
        let bare = percentile(bareTimes, 0.5)
        func row(_ name: String, _ times: [Double]) {
            let median = percentile(times, 0.5)
            print("  " + pad(name, 58) + pad(String(Int(median.rounded())) + " µs", 12)
                  + pad(String(Int(percentile(times, 0.9).rounded())) + " µs", 12) + String(format2: median / bare) + "×")
        }
        row("grade, note found from the log and parsed (quire grade)", gradeTimes)
        row("grade, note known from the index (quire review)", sessionTimes)
        row("baseline: log append + note replace", bareTimes)
        row("baseline + undo-journal append (\(journalLine.count) B)", journalTimes)
        // Where the rest goes: the in-memory steps of a grade on the same note, one call each.
        var kept = 0
        row("  in memory: NoteParser.parse of the note", sample(gradeCount) {
            kept &+= NoteParser.parse(bytes, path: notePath).note?.cards.count ?? 0
        })
        row("  in memory: FrontMatter(file:) of the note", sample(gradeCount) {
            kept &+= (try? FrontMatter(file: bytes))?.bodyRange.lowerBound ?? 0
        })
        let line = SchedulingLine.encode(FSRSScheduler().next(nil, rating: .good, at: start, card: cards[0]))
        row("  in memory: FrontMatterEditor(file:) + one setEntry", sample(gradeCount) {
            var editor = try? FrontMatterEditor(file: bytes)
            try? editor?.setEntry(cards[0].rawValue, in: SchedulingLine.key, to: line)
            kept &+= editor?.file.count ?? 0
        })
        print("  target: grade ≤ 1.5× baseline (checksum \(kept))\n")
    }

    /// A realistic note: front matter with title, tags and a `quire:` block holding a stored FSRS
    /// state for each of its cards, and a body of question-and-answer and one-line cards.
    /// For profilers: the CPU part of a grade, `count` times: parse the note, edit its front matter.
    static func gradeLoop(_ count: Int) throws {
        let (bytes, cards) = try seededNote(path: "note.md")
        var total = 0
        for i in 0..<count {
            let note = NoteParser.parse(bytes, path: "note.md").note
            var editor = try FrontMatterEditor(file: bytes)
            let state = note?.cards[i % cards.count].schedule ?? SchedulingState()
            try editor.setEntry(cards[i % cards.count].rawValue, in: "quire", to: SchedulingLine.encode(state))
            total &+= editor.file.count
        }
        print("checksum \(total)")
    }

    static func seededNote(path: String) throws -> (bytes: [UInt8], cards: [CardID]) {
        let text = """
            ---
            title: Cell organelles
            tags:
              - biology
              - cells
              - exam
            created: 2026-09-14
            source: "Campbell Biology, 12th ed., ch. 6"
            ---

            # Cell organelles

            ## Energy

            Q: What does the mitochondrion produce, and how?
            A: Most of the cell's ATP, by oxidative phosphorylation on the inner mitochondrial membrane.

            Q: What evidence supports the endosymbiotic origin of mitochondria and chloroplasts?
            A: Their own circular DNA and 70S ribosomes, a double membrane, and division by binary fission.

            Chloroplast :: the plastid in plants and algae where photosynthesis takes place

            ## Protein synthesis and transport

            - Ribosome :: a complex of rRNA and protein that translates mRNA into a polypeptide
            - Golgi apparatus :: modifies, sorts and packages proteins into vesicles
            - Rough ER :: endoplasmic reticulum studded with ribosomes, where secreted proteins are made

            Q: Which organelle adds the carbohydrate tags that send proteins to their destinations?
            A: The Golgi apparatus.

            ## Digestion and recycling

            Lysosome :: a membrane sac of hydrolytic enzymes that work best at about pH 5

            Peroxisome :: an organelle that breaks down fatty acids and converts H₂O₂ into water

            Q: What happens to a worn-out organelle?
            A: Autophagy: it is wrapped in a membrane and digested by a lysosome.

            """
        let plain = Array(text.utf8)
        guard let note = NoteParser.parse(plain, path: path).note, !note.cards.isEmpty else {
            throw BenchError("the benchmark note does not parse")
        }
        // A few reviews each, from a fixed start, as live grading would have stored them.
        let scheduler = FSRSScheduler()
        var rng = SplitMix64(seed: 0x6e6f_7465)
        var editor: FrontMatterEditor
        do {
            editor = try FrontMatterEditor(file: plain)
            for card in note.cards {
                var state: SchedulingState?
                var at = Timestamp(year: 2026, month: 9, day: 14, hour: 8)
                for _ in 0..<(2 + Int(rng.next() % 4)) {
                    var new = scheduler.next(state, rating: rng.rating(), at: at, card: card.id).stored
                    new.fingerprint = card.fingerprint
                    at = new.due ?? at
                    state = new
                }
                if let state {
                    try editor.setEntry(card.id.rawValue, in: SchedulingLine.key, to: SchedulingLine.encode(state))
                }
            }
        } catch {
            throw BenchError("seeding the note: \(error)")
        }
        return (editor.file, note.cards.map(\.id))
    }

    // MARK: - Replay

    /// Cards in the replay benchmark's log.
    static let replayCards = 5_000
    /// Grades per card (5,000 × 20 = 100,000 events).
    static let replayReviews = 20

    /// Times parsing a log of 100,000 grades and folding it into every card's state.
    static func replay() {
        let settings = SchedulerSettings()
        let (events, finals) = replayEvents(settings: settings)
        let text = ReviewLog.header + "\n" + events.map { ReviewLog.format($0) + "\n" }.joined()
        let runs = 3

        var parsedCount = 0, parseErrors = 0
        let parse = medianSeconds(runs) {
            let begin = monotonicNanoseconds()
            let parsed = ReviewLog.parse(text)
            let elapsed = monotonicNanoseconds() - begin
            parsedCount = parsed.events.count
            parseErrors = parsed.errors.count
            return elapsed
        }
        var mismatches = 0, reps = 0
        let fold = medianSeconds(runs) {
            let begin = monotonicNanoseconds()
            let history = ReviewHistory(events)
            var states: [SchedulingState?] = []
            states.reserveCapacity(finals.count)
            for (card, _) in finals { states.append(history.state(of: card) { _ in settings }) }
            let elapsed = monotonicNanoseconds() - begin
            mismatches = zip(states, finals).filter { $0.0 != $0.1.state }.count
            reps = states.reduce(0) { $0 + ($1?.reps ?? 0) }
            return elapsed
        }

        let mb = Double(text.utf8.count) / 1_048_576
        print("Replay — \(events.count) grade events (\(replayCards) cards × \(replayReviews)), median of \(runs)")
        print("  " + pad("measurement", 58) + pad("time", 12) + "reviews/s")
        print("  " + pad("parse: ReviewLog.parse of the log text (\(String(format1: mb)) MB)", 58)
              + pad(String(format3: parse) + " s", 12) + String(Int(Double(events.count) / parse)))
        print("  " + pad("fold: ReviewHistory + state(of:) for every card", 58)
              + pad(String(format3: fold) + " s", 12) + String(Int(Double(events.count) / fold)))
        print("  checks: \(parsedCount) events parsed, \(parseErrors) errors; \(reps) reps folded, "
              + "\(mismatches) cards differ from live grading\n")
    }

    /// A log of grades: each card first reviewed within the first 60 days, then answered up to half
    /// a day after each due time; ratings mostly Good. Events are in time order, as one device's log
    /// would be. Also returns each card's state after its last grade, computed as live grading does.
    static func replayEvents(settings: SchedulerSettings) -> (events: [ReviewEvent], finals: [(card: CardID, state: SchedulingState?)]) {
        var rng = SplitMix64(seed: 0x7265_706c_6179)
        let start = Timestamp(year: 2026, month: 1, day: 1, hour: 7)
        var events: [ReviewEvent] = []
        events.reserveCapacity(replayCards * replayReviews)
        var finals: [(card: CardID, state: SchedulingState?)] = []
        for c in 0..<replayCards {
            let card = CardID(derivedHash: rng.next())
            let path = "Deck\(c / 500)/note-\(c / 10).md"
            var at = Timestamp(milliseconds: start.milliseconds + Int64(rng.next() % (60 * 86_400_000)))
            var state: SchedulingState?
            for _ in 0..<replayReviews {
                let rating = rng.rating()
                events.append(ReviewEvent(time: at, card: card, action: .grade(rating), fields: [
                    ("sched", "fsrs"), ("ms", String(2_000 + rng.next() % 13_000)), ("path", path),
                ]))
                state = ReviewTransition.apply(.grade(rating), to: state, at: at, card: card, settings: settings)
                let due = state?.due ?? at
                at = Timestamp(milliseconds: due.milliseconds + Int64(rng.next() % 43_200_000))
            }
            finals.append((card, state))
        }
        // Stable, as a log written in time order keeps its line order.
        let ordered = events.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }
        return (ordered.map(\.element), finals)
    }

    // MARK: - Helpers

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// The median over `runs` runs of a body that returns the nanoseconds it measured, in seconds.
    static func medianSeconds(_ runs: Int, _ body: () -> UInt64) -> Double {
        var times: [Double] = []
        for _ in 0..<max(1, runs) { times.append(Double(body()) / 1e9) }
        return percentile(times, 0.5)
    }

    /// The time of each of `count` calls of `body`, in microseconds.
    static func sample(_ count: Int, _ body: () -> Void) -> [Double] {
        (0..<count).map { _ in
            let begin = monotonicNanoseconds()
            body()
            return Double(monotonicNanoseconds() - begin) / 1e3
        }
    }

    /// The value at fraction `p` of the sorted values (the upper median for an even count, as
    /// ``QuireBench/median(_:after:_:)``).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// A new empty folder under `/tmp`, by `mkdtemp`.
    static func makeTemporaryFolder() throws -> String {
        // QUIRE_BENCH_TMP=/dev/shm puts the vault on tmpfs, where fsync costs nothing: what is left
        // is the processor time of a grade.
        let base = getenv("QUIRE_BENCH_TMP").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/quire-grading-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buf in buf.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw BenchError("mkdtemp failed: errno \(errno)") }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func pad(_ s: String, _ n: Int) -> String { QuireBench.pad(s, n) }
}

extension SplitMix64 {
    /// A rating drawn as a user's answers fall: 8 % Again, 7 % Hard, 75 % Good, 10 % Easy.
    mutating func rating() -> Rating {
        switch next() % 100 {
        case 0..<8: .again
        case 8..<15: .hard
        case 15..<90: .good
        default: .easy
        }
    }
}
