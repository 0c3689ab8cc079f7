import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireIndex

/// One of the commands that record an action on every card a query selects (`quire suspend`,
/// `bury`, `reset`, `promote` …): its name and help, the word it prints, and the action. Each is a
/// type of its own file; ``CardActionCommand`` is the command they all run as.
protocol CardAction {
    /// Options of this command alone, shown between the vault's options and the query
    /// (`bury --until`); ``NoCardActionOptions`` for most.
    associatedtype Options: ParsableArguments = NoCardActionOptions

    /// The command's name (which must be given: the generic command's type name is no name) and help.
    static var configuration: CommandConfiguration { get }
    /// What the command prints for each card it changed (`suspended 7k2m9xq4v1ab (…)`).
    static var verb: String { get }
    /// Checks the command's own options, after the shared ones (as a command's `validate()` runs);
    /// `now` is the time the command runs at.
    static func validate(_ options: Options, now: Timestamp) throws
    /// Whether the command asks before acting on every card (`reset all`: it forgets their history).
    static var asksBeforeEveryCard: Bool { get }
    /// The action to record on each selected card.
    /// - Parameters:
    ///   - options: the command's own options.
    ///   - now: the time the command runs at (read once).
    ///   - config: the vault's settings.
    static func action(_ options: Options, now: Timestamp, config: VaultConfig) -> ReviewAction
}

extension CardAction {
    static var asksBeforeEveryCard: Bool { false }

    static func validate(_ options: Options, now: Timestamp) throws {}
}

/// The options of a card action that has none of its own.
struct NoCardActionOptions: ParsableArguments {}

/// `quire ACTION QUERY`: records `Action` on every card the query selects, note by note
/// (``ReviewContext/apply(_:_:now:verb:)``).
struct CardActionCommand<Action: CardAction>: ParsableCommand {
    static var configuration: CommandConfiguration { Action.configuration }

    @OptionGroup var options: VaultOptions
    @OptionGroup var own: Action.Options
    @OptionGroup var action: CardActionOptions

    func validate() throws {
        try UnknownOptions.reject(action.query, of: Self.self)
        try Action.validate(own, now: options.now)
    }

    func run() throws {
        let now = options.now
        var context = try ReviewContext(options)
        let recorded = Action.action(own, now: now, config: context.config)
        try context.apply({ _ in recorded }, action, now: now, verb: Action.verb, asksBeforeEveryCard: Action.asksBeforeEveryCard)
    }
}
