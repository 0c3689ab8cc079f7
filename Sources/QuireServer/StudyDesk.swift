import QuireApp
import QuireCuration
import QuireGeneration
import QuireIndex
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
import QuireSupport
import QuireSystem
import QuireWatch
import QuireVault

/// What the web page studies with: the vault's index kept current by the watcher, and one review
/// session per open page (a tab), each a ``ReviewController`` as the terminal's screen has.
///
/// An actor: the page's requests come on many threads, and each action — a grade, an undo, a
/// note changed on disk — runs alone, reading the clock once. Other processes (a terminal review,
/// `quire grade`, git) are kept apart by the writer's lock and its check that a note did not
/// change since it was read, as for every writer.
public actor StudyDesk {
    /// The vault.
    public let vault: Vault
    private let cached: Bool
    let live: LiveIndex
    let clock: StudyClock
    let cards: CardHTML
    private var sessions: [String: WebSession] = [:]
    /// The pages' curation reviews, by ID.
    var curations: [String: CurationSession] = [:]
    /// The search index, once a page searched.
    var searcher: VaultSearch?
    /// Keeps the vault's search index current as notes change, when the vault has one: words at
    /// once, missing vectors by a thread at the lowest priority (as `quire watch` does).
    let follower: SearchFollower?
    /// The index's generation: one more for each batch of changes taken in.
    private var generation = 0
    /// The last study context built, and what it was built from (``studyContext()``), with
    /// today's plan once made from it.
    private var contextMemo: (key: String, context: StudyContext, plan: StudyPlan?)?
    /// The curation reviews due, and the index generation and curation logs they were found from.
    private var curationMemo: (key: String, due: [PeriodStatus])?
    /// Session IDs, oldest first (the oldest is let go past ``maximumSessions``).
    private var opened: [String] = []
    private var random = SystemRandomNumberGenerator()
    /// Open pages kept at once; a page whose session was let go starts a new one.
    static let maximumSessions = 32

    /// One page's session.
    struct WebSession {
        var controller: ReviewController
        /// The card on the page, and when it was shown.
        var current: StudySession.Entry?
        var shownAt: Timestamp
        /// The day's statistics as the session started (for the summary's streak).
        var stats: StudyStats
        var today: Day
        /// Whether cards of notes changed meanwhile may join, and which.
        var joins: Bool
        var query: Query?
        /// The answer typed for the card shown (logged with its grade when it was not the card's).
        var typed: String?
    }

    /// Whether every card's answer is typed (`quire serve --type`), not only those of notes with
    /// `type: true`.
    private(set) var typesEveryAnswer = false

    /// Sets whether every card's answer is typed.
    public func typeEveryAnswer(_ on: Bool) { typesEveryAnswer = on }

    /// The desk for `vault`, its index built now (through the cache unless `cached` is false).
    /// Watching is the caller's: it starts its watcher before this, and hands each batch of
    /// changes to ``takeIn(_:)``.
    ///
    /// - Parameters:
    ///   - pinnedNow: a fixed clock (for tests), moving a second per reading.
    ///   - linkKey: the run's link key, which the cards' file addresses carry (``RequestGate``).
    public init(vault: Vault, cached: Bool, pinnedNow: Timestamp?, linkKey: String = "") throws(ServerError) {
        guard vault.isInitialized else { throw .app(.notInitialized(root: vault.root)) }
        self.vault = vault
        self.cached = cached
        do {
            live = try LiveIndex(vault: vault, watcher: HandedWatcher(root: vault.root), cached: cached)
        } catch {
            throw .watch(error.description)
        }
        clock = StudyClock(fixed: pinnedNow)
        cards = CardHTML(vault: vault, linkKey: linkKey)
        follower = SearchFollower(vault: vault, index: live.index)
    }

    // MARK: - The overview

    /// Today's plan, the decks and their cards, the streak and the files that could not be read.
    public func overview() throws(ServerError) -> JSONValue {
        let context = try studyContext()
        let plan = todaysPlan(context)
        var sections: [(String, JSONValue)] = []
        for section in StudyPlan.Section.allCases {
            sections.append((section.rawValue, .int(plan.items.filter { $0.section == section }.count)))
        }
        sections.append(("total", .int(plan.items.count)))
        // Decks: every deck with its cards, and what of today's plan is in it.
        let index = live.index
        var decks: [String: (cards: Int, due: Int, new: Int, unseen: Int)] = [:]
        for note in index.notes where !note.archived && !note.cards.isEmpty {
            decks[note.deck.description, default: (0, 0, 0, 0)].cards += note.cards.count
            decks[note.deck.description, default: (0, 0, 0, 0)].unseen += note.cards.filter { $0.schedule == nil }.count
        }
        for item in plan.items {
            let deck = index.notes[item.location.note].deck.description
            if item.section == .new { decks[deck, default: (0, 0, 0, 0)].new += 1 } else { decks[deck, default: (0, 0, 0, 0)].due += 1 }
        }
        let streak = context.stats.streaks(today: context.today)
        let errors = index.diagnostics.filter { $0.severity == .error }.prefix(50).map { d -> JSONValue in
            .string(d.description)
        }
        return .object([
            ("vault", .string(vault.root.split(separator: "/").last.map(String.init) ?? vault.root)),
            ("today", .string(context.today.description)),
            ("plan", .object(sections)),
            ("studiedToday", .object([("reviews", .int(plan.studiedToday.reviews)), ("new", .int(plan.studiedToday.new))])),
            ("minutes", .int((plan.items.count * plan.secondsPerCard + 59) / 60)),
            ("decks", .array(decks.keys.sorted().compactMap { name in
                decks[name].map { .object([("deck", .string(name)), ("cards", .int($0.cards)), ("due", .int($0.due)), ("new", .int($0.new)),
                                           ("unseen", .int($0.unseen))]) }
            })),
            ("streak", .object([("current", .int(streak.current)), ("longest", .int(streak.longest))])),
            ("notes", .int(index.notes.count)),
            ("cards", .int(index.cardCount)),
            ("errors", .array(Array(errors))),
            ("curation", .array(try curationDueNow().map { s in
                .object([("review", .string(s.period.review.rawValue)), ("period", .string(s.period.description)),
                         ("title", .string(s.period.title)), ("left", .int(s.left))])
            })),
        ])
    }

    // MARK: - Sessions

    /// New cards a "learn new" session takes past today's limit (as `quire review --mode custom --new 20`).
    public static let extraNew = 20

    /// Starts a session: today's plan, or the cards of `deck` (and its sub-decks) as the vault's
    /// `session` mode takes them — or, with `learnNew`, up to ``extraNew`` of its new cards past
    /// today's limit; returns its ID and its first card (``state(of:)``).
    public func start(deck: String?, learnNew: Bool = false) throws(ServerError) -> JSONValue {
        let context = try studyContext()
        var query: Query?
        if let deck, !deck.isEmpty {
            guard let path = DeckPath(deck) else { throw .badRequest("no deck '\(deck)'") }
            query = .term(.deck(path))
        }
        let request: StudyContext.SessionRequest = learnNew ? .mode(.custom, counts: (new: Self.extraNew, reviews: 0), query: query)
            : query.map { .mode(context.config.study.mode, counts: nil, query: $0) } ?? .todaysPlan
        let (entries, plan) = context.session(request, todaysPlan: query == nil && !learnNew ? todaysPlan(context) : nil)
        let review: ReviewContext
        do { review = try ReviewContext(vault: vault, cached: cached) } catch { throw .app(error) }
        let controller = ReviewController(writer: review.writer, index: live.index, entries: entries, dayEnd: context.dayEnd)
        let id = newID()
        sessions[id] = WebSession(controller: controller, current: nil, shownAt: clock.peek(), stats: context.stats,
                                  today: context.today, joins: plan.overLimit == 0, query: query)
        remember(id)
        return try state(of: id)
    }

    /// A new session ID: 96 random bits in hex.
    func newID() -> String {
        (0..<12).map { _ in
            let hex = String(UInt8.random(in: 0...255, using: &random), radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Keeps the ID's session; the oldest session (study or curation) goes past ``maximumSessions``.
    func remember(_ id: String) {
        opened.append(id)
        if opened.count > Self.maximumSessions {
            let oldest = opened.removeFirst()
            sessions[oldest] = nil
            curations[oldest] = nil
        }
    }

    /// The session's card (front, back, the buttons with their intervals), or its results when
    /// nothing is left.
    public func state(of id: String, message: String? = nil) throws(ServerError) -> JSONValue {
        guard var session = sessions[id] else { throw .noSession }
        let now = clock.peek()
        if session.current.map({ session.controller.card($0) == nil }) ?? true {
            session.current = session.controller.next(at: now)
            session.shownAt = now
        }
        sessions[id] = session
        var fields: [(String, JSONValue)] = [("session", .string(id)), ("message", .optional(message))]
        let remaining = session.controller.session.remaining
        fields.append(("remaining", .object([("new", .int(remaining.new)), ("learning", .int(remaining.learning)),
                                             ("review", .int(remaining.review))])))
        guard let entry = session.current, let (card, note) = session.controller.card(entry) else {
            fields.append(("done", .bool(true)))
            fields.append(("summary", summary(session)))
            return .object(fields)
        }
        let (front, back) = cards.faces(of: card, in: note)
        let settings = session.controller.settings(for: entry)
        let buttons = session.controller.preview(entry, at: now).enumerated().map { i, p -> JSONValue in
            .object([("key", .int(i + 1)), ("rating", .string(p.rating.name)), ("label", .string(p.rating.name.capitalized)),
                     ("interval", .string(p.state.due.map { ReviewContext.span(from: now, to: $0) } ?? "-"))])
        }
        fields.append(("done", .bool(false)))
        fields.append(("card", .object([
            ("id", .string(card.id.description)),
            ("kind", .string(card.kind.rawValue)),
            ("path", .string(note.path)),
            ("line", .int(card.lines.lowerBound)),
            ("title", .string(note.title)),
            ("heading", .array(card.headingPath.map { .string($0) })),
            ("state", .string(ReviewContext.stateWord(card.schedule, section: entry.section))),
            ("front", .string(front)),
            ("back", .string(back)),
            ("flow", .bool(settings.kind == .flow)),
            ("type", .bool(ReviewContext.asksToType(card, in: note, always: typesEveryAnswer))),
        ])))
        fields.append(("buttons", .array(buttons)))
        let progress = session.controller.session.progress
        fields.append(("progress", .object([("position", .int(progress.position)), ("total", .int(progress.total))])))
        return .object(fields)
    }

    /// Grades the session's card `card` (the one the page shows: a page showing another — a
    /// second click, a stale tab — is told so and shown the card it should).
    public func grade(_ id: String, card: String, rating name: String) throws(ServerError) -> JSONValue {
        var session = try current(id, card: card)
        guard let entry = session.current else { throw .noSession }
        let ratings = session.controller.settings(for: entry).ratings
        guard let rating = ratings.first(where: { $0.name == name }) else { throw .badRequest("no button '\(name)' for this card") }
        let graded: GradeNotice
        do {
            let back = session.controller.card(entry)?.card.back ?? ""
            graded = try session.controller.grade(entry, rating, shownAt: session.shownAt, clock: clock,
                                                typedWrongly: ReviewContext.typedWrongly(session.typed, back: back))
        } catch {
            sessions[id] = session
            throw .review(error)
        }
        let message = graded.line
        session.current = nil
        session.typed = nil
        sessions[id] = session
        dropElsewhere(entry.card, keeping: id)
        return try state(of: id, message: message)
    }

    /// Compares the answer typed for the session's card `card` with the card's, and keeps it for
    /// the grade: whether it was right, and the runs of characters same, wrong and missing.
    public func check(_ id: String, card: String, typed: String) throws(ServerError) -> JSONValue {
        var session = try current(id, card: card)
        guard let entry = session.current, let (c, _) = session.controller.card(entry) else { throw .noSession }
        guard typed.utf8.count <= 10_000 else { throw .badRequest("an answer of at most 10,000 bytes") }
        session.typed = typed
        sessions[id] = session
        let result = ReviewContext.comparison(typed: typed, back: c.back)
        return .object([
            ("correct", .bool(result.isCorrect)),
            ("segments", .array(result.segments.map { segment -> JSONValue in
                switch segment {
                case .same(let t): .array([.string(t), .string("same")])
                case .wrong(let t): .array([.string(t), .string("wrong")])
                case .missing(let t): .array([.string(t), .string("missing")])
                }
            })),
        ])
    }

    /// Takes back the session's last action.
    public func undo(_ id: String) throws(ServerError) -> JSONValue {
        guard var session = sessions[id] else { throw .noSession }
        let message: String
        do {
            let undone = try session.controller.undoLast(clock: clock)
            message = undone.message
            if undone.undone != nil {
                session.current = nil
                session.typed = nil
            }
        } catch {
            throw .review(error)
        }
        sessions[id] = session
        return try state(of: id, message: message)
    }

    /// What the page's other keys do to the card it shows: `skip` (to the end of the queue),
    /// `bury` (until tomorrow), `suspend`, `promote` and `demote` (StudyFlow cards).
    public func act(_ id: String, card: String, action name: String) throws(ServerError) -> JSONValue {
        var session = try current(id, card: card)
        guard let entry = session.current else { throw .noSession }
        guard let command = SessionCommand(rawValue: name) else { throw .badRequest("no action '\(name)'") }
        let done: ActionNotice
        do { done = try session.controller.perform(command, on: entry, clock: clock) } catch {
            sessions[id] = session
            throw .review(error)
        }
        if done.done {
            if command != .skip { dropElsewhere(entry.card, keeping: id) }
            session.current = nil
            session.typed = nil
        }
        sessions[id] = session
        return try state(of: id, message: done.message)
    }

    /// The text the session's card `card` was made from (`x`, as `quire explain` shows it): the
    /// line it starts at, and the text as HTML.
    public func explain(_ id: String, card: String) throws(ServerError) -> JSONValue {
        let session = try current(id, card: card)
        guard let entry = session.current, let (c, note) = session.controller.card(entry) else { throw .noSession }
        let bytes = (try? vault.io.read(vault.fullPath(note.path)).bytes) ?? []
        let source = CardContext.context(of: c, in: note, bytes: bytes)
        return .object([("line", .optional(source.line)), ("html", .string(cards.html(source.text, notePath: note.path)))])
    }

    /// Starts over with the cards failed in this session (`r` once it is done).
    public func retry(_ id: String) throws(ServerError) -> JSONValue {
        guard var session = sessions[id] else { throw .noSession }
        let failed = session.controller.session.results.failed.count
        guard failed > 0 else { throw .badRequest("no card failed in this session") }
        session.controller.retryFailed()
        session.current = nil
        sessions[id] = session
        return try state(of: id, message: "Going over the \(failed) failed card\(failed == 1 ? "" : "s") again.")
    }

    /// The note file and line of the session's card `card`, for the editor.
    public func editTarget(_ id: String, card: String) throws(ServerError) -> (path: String, line: Int) {
        let session = try current(id, card: card)
        guard let entry = session.current, let (c, _) = session.controller.card(entry) else { throw .noSession }
        return (vault.fullPath(entry.path), c.lines.lowerBound)
    }

    /// The session, when the page shows its current card.
    private func current(_ id: String, card: String) throws(ServerError) -> WebSession {
        guard let session = sessions[id] else { throw .noSession }
        guard let entry = session.current, entry.card.description == card else { throw .staleCard }
        return session
    }

    /// A card answered or set aside on one page leaves the others' queues (two tabs never
    /// answer it twice).
    private func dropElsewhere(_ card: CardID, keeping id: String) {
        for key in sessions.keys where key != id {
            sessions[key]?.controller.remove(card)
            if sessions[key]?.current?.card == card { sessions[key]?.current = nil }
        }
    }

    // MARK: - Changes on disk

    /// Takes in a batch of changed files (the watcher's): the index, then every session's notes;
    /// returns the changed notes' paths, for the pages to hear.
    public func takeIn(_ batch: [FileChange]) -> [String] {
        let events = live.apply(batch)
        // A failure leaves the search index for the next search to bring up to date.
        _ = follower?.follow(events, index: live.index)
        generation += 1
        let now = clock.peek()
        for key in sessions.keys {
            guard var session = sessions[key] else { continue }
            let joins = session.joins, query = session.query, dayEnd = session.controller.session.dayEnd
            _ = session.controller.takeIn(batch) { card, note in
                joins ? SessionRules.joining(card, in: note, now: now, dayEnd: dayEnd, query: query) : nil
            }
            if let current = session.current, session.controller.card(current) == nil { session.current = nil }
            sessions[key] = session
        }
        var paths: [String] = []
        for event in events {
            switch event {
            case .note(let update): paths.append(update.path)
            case .rescanned: paths.append("*")
            }
        }
        return paths
    }

    // MARK: - Helpers

    /// What studying needs loaded now: built from the index and the log, and kept for the next
    /// request while nothing it was built from changed (opening the page asks for the overview,
    /// then starts a session: one reading of the log serves both).
    func studyContext() throws(ServerError) -> StudyContext {
        let now = clock.peek()
        // What the context depends on: the index (each batch of changes makes a new generation),
        // the logs and settings as they are on disk; and the time, within a few seconds.
        var key = "\(generation)"
        for file in vault.reviewLogFiles() + [Vault.folderName + "/config.yaml"] { key += stampKey(file) }
        if let memo = contextMemo, memo.key == key, (0..<5000).contains(now.milliseconds - memo.context.now.milliseconds) {
            return memo.context
        }
        let config: VaultConfig
        do { config = try LoadedVault.readSettings(of: vault).config } catch { throw .app(error) }
        let context = StudyContext(LoadedVault(vault, index: live.index), config: config, now: now)
        contextMemo = (key, context, nil)
        return context
    }

    /// Today's plan from ``studyContext()``, made once per context.
    func todaysPlan(_ context: StudyContext) -> StudyPlan {
        if let memo = contextMemo, memo.context.now == context.now, let plan = memo.plan { return plan }
        let plan = context.plan()
        if contextMemo?.context.now == context.now { contextMemo?.plan = plan }
        return plan
    }

    /// The curation reviews due today, found again only when the index, the settings or a
    /// curation log changed.
    func curationDueNow() throws(ServerError) -> [PeriodStatus] {
        var key = "\(generation) \(CurationContext.day(of: clock.peek()))"
        let folder = Vault.folderName + "/curation"
        if let path = try? vault.internalFolder(folder), let names = vault.io.names(in: path) {
            for name in names.sorted() { key += stampKey(folder + "/" + name) }
        }
        key += stampKey(Vault.folderName + "/config.yaml")
        if let memo = curationMemo, memo.key == key { return memo.due }
        let due = try curationDue()
        curationMemo = (key, due)
        return due
    }

    /// A file of `.quire/` as a memo's key names it: its path, size and time of change (-1 when
    /// it is not there).
    private func stampKey(_ file: String) -> String {
        let stamp = (try? vault.internalPath(file)).flatMap { vault.io.stamp($0) }
        return " \(file):\(stamp?.size ?? -1):\(stamp?.mtimeNanoseconds ?? -1)"
    }

    private func summary(_ session: WebSession) -> JSONValue {
        let outcome = SessionRules.outcome(of: session.controller, stats: session.stats, today: session.today)
        let results = outcome.results, streak = outcome.streak
        return .object([
            ("cards", .int(results.cardsStudied)), ("answers", .int(results.answers)), ("correct", .int(results.correct)),
            ("accuracy", .int(Int((results.accuracy * 100).rounded()))), ("level", .string(results.level.rawValue)),
            ("seconds", .int((results.milliseconds + 500) / 1000)), ("failed", .int(results.failed.count)),
            ("streak", .int(streak.current)), ("longest", .int(streak.longest)),
        ])
    }
}

/// A watcher whose changes are handed in (``StudyDesk/takeIn(_:)``) rather than waited for.
final class HandedWatcher: FileWatcher {
    let root: String
    init(root: String) { self.root = root }
    func start() throws(WatchError) {}
    func stop() {}
    func next(timeout: Duration?) throws(WatchError) -> [FileChange]? { nil }
}
