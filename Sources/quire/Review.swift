import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireModel
import QuireScheduling
import QuireIndex
import QuireStudy

extension Quire {
    /// `quire review [QUERY]`.
    struct Review: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "review",
            abstract: "Study: today's plan, or the due and new cards a query selects.",
            discussion: """
                Without a query or --mode, studies exactly today's plan (see 'quire today'). --mode new \
                takes up to 20 new cards, review up to 25 due cards, mixed 5 new and 20 due (the daily \
                limits still apply), custom the counts of --new and --reviews (past the daily limits). \
                Beyond the plan: --ahead DAYS, --failed-today, --forgotten DAYS, --cram QUERY. Keys: Space or Enter shows \
                the answer (Space scrolls a long card first; arrows, j/k, PgUp/PgDn scroll), 1-4 grade once \
                it shows (1-3 with 3 buttons), u undo the last action, e edit in $EDITOR, o open the card's \
                images, s skip, b bury until tomorrow, ! suspend, p/P promote/demote (StudyFlow cards), ? \
                help, q quit. With --type (or type: true in a note) the answer is typed and compared. \
                --plain reads the commands line by line from standard input, for scripts.

                Example: quire review; quire review --mode custom --new 30 deck:Spanish
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: "new, review, mixed or custom (default: today's plan, or the config's 'session' with a query).")
        var mode: StudyMode?
        @Option(help: "New cards in the session (custom mode).")
        var new: Int?
        @Option(help: "Due cards in the session (custom mode).")
        var reviews: Int?
        @Option(help: ArgumentHelp("Study cards due in the next DAYS days, before they are due.", valueName: "DAYS"))
        var ahead: Int?
        @Flag(help: "Go over the cards answered Again today.")
        var failedToday = false
        @Option(help: ArgumentHelp("Go over the cards answered Again in the last DAYS days.", valueName: "DAYS"))
        var forgotten: Int?
        @Flag(help: "Cram the cards the query selects, new and not due ones too; their schedules are left alone.")
        var cram = false
        @Flag(help: "With --cram: record the answers and reschedule the cards as usual.")
        var reschedule = false
        @Flag(help: "Type each answer before it is shown, and see how it differs (also: 'type: true' in a note).")
        var type = false
        @Flag(help: "No full-screen interface: read commands line by line from standard input.")
        var plain = false
        @Argument(parsing: .allUnrecognized, help: "A query selecting the cards to study, e.g. deck:Biology.", completion: .custom(QueryCompletion.words))
        var query: [String] = []

        /// The custom study the options ask for, if any.
        var custom: CustomStudy? {
            if let ahead { return .ahead(days: ahead) }
            if failedToday { return .failedToday }
            if let forgotten { return .forgotten(days: forgotten) }
            return cram ? .cram : nil
        }

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            let customs = [ahead != nil, failedToday, forgotten != nil, cram].filter { $0 }.count
            if customs > 1 { throw ValidationError("choose one of --ahead, --failed-today, --forgotten and --cram") }
            if customs == 1, mode != nil || new != nil || reviews != nil {
                throw ValidationError("--ahead, --failed-today, --forgotten and --cram take no --mode, --new or --reviews")
            }
            if let ahead, ahead < 1 { throw ValidationError("--ahead takes a number of days, 1 or more") }
            if let forgotten, forgotten < 1 { throw ValidationError("--forgotten takes a number of days, 1 or more") }
            if reschedule && !cram { throw ValidationError("--reschedule goes with --cram") }
            if let new, new < 0 { throw ValidationError("--new cannot be negative") }
            if let reviews, reviews < 0 { throw ValidationError("--reviews cannot be negative") }
            if (new != nil || reviews != nil), let mode, mode != .custom {
                throw ValidationError("--new and --reviews go with --mode custom")
            }
        }

        func run() throws {
            let context = try StudyContext(options)
            let words = query.filter { $0 != "--" }
            let wholePlan = words.isEmpty && mode == nil && new == nil && reviews == nil
            let q = words.isEmpty ? nil : try options.query(words)
            if cram && q == nil { throw ValidationError("--cram needs a query selecting the cards to cram (all: every card)") }
            let chosen = mode ?? (new != nil || reviews != nil ? .custom : context.config.study.mode)
            let chosenMode: StudyMode? = wholePlan ? nil : chosen
            let request: StudyContext.SessionRequest
            if let custom {
                request = .custom(custom, query: q)
            } else if wholePlan {
                request = .todaysPlan
            } else {
                let defaults = chosen.defaultCounts
                request = .mode(chosen, counts: chosen == .custom ? (new ?? defaults.new, reviews ?? defaults.reviews) : nil, query: q)
            }
            try Self.study(context, request, options: options, recordsAnswers: !cram || reschedule, plain: plain,
                           typeEveryAnswer: type, changedCardsJoin: chosenMode != .new && custom == nil)
        }

        /// Studies the session `request` asks for in `context`: line by line (`plain`, or when
        /// standard output is no terminal) or on the full screen.
        /// - Parameter changedCardsJoin: whether a card that becomes due in a note changed while
        ///   studying joins (not in a new-cards session, a custom study, or once today's reviews
        ///   were over the limit).
        static func study(_ context: StudyContext, _ request: StudyContext.SessionRequest, options: VaultOptions, recordsAnswers: Bool,
                          plain: Bool, typeEveryAnswer: Bool, changedCardsJoin: Bool) throws {
            let (entries, plan) = context.session(request)
            if entries.isEmpty {
                let custom: CustomStudy? = if case .custom(let custom, _) = request { custom } else { nil }
                for line in StudyContext.nothingToStudy(plan: plan, custom: custom, settings: context.config.study) { Output.line(line) }
                try context.loaded.finish()
                return
            }
            let review = try ReviewContext(options)
            let controller = ReviewController(writer: review.writer, index: context.loaded.index, entries: entries, dayEnd: context.dayEnd,
                                              recordsAnswers: recordsAnswers)
            let clock = StudyClock(fixed: options.pinnedNow)
            if plain || !Output.isTerminal {
                var loop = PlainReview(controller: controller, context: context, clock: clock, secondsPerCard: plan.secondsPerCard)
                loop.run()
            } else {
                let calendar = context.calendar, query = request.query
                let canJoin = changedCardsJoin && plan.overLimit == 0
                let joining: (Card, Note, Timestamp) -> StudyPlan.Section? = { card, note, now in
                    guard canJoin else { return nil }
                    return SessionRules.joining(card, in: note, now: now, dayEnd: calendar.end(containing: now), query: query)
                }
                var screen = ReviewScreen(controller: controller, context: context, clock: clock,
                                          secondsPerCard: plan.secondsPerCard, typeEveryAnswer: typeEveryAnswer, joining: joining)
                screen.run()
            }
            try context.loaded.finish()
        }
    }
}

extension StudyMode: ExpressibleByArgument {}
