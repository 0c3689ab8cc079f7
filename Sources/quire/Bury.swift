import QuireTerminal
import ArgumentParser
import QuireModel
import QuireScheduling
import QuireIndex

extension Quire {
    /// `quire bury QUERY [--until TIME]`.
    enum Bury: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "bury",
            abstract: "Bury cards: they do not come up before the next study day (or --until).",
            discussion: "Example: quire bury deck:Spanish/Verbs")
        static let verb = "buried"

        struct Options: ParsableArguments {
            @Option(help: "Bury until this time instead of the start of the next study day.")
            var until: String?
        }

        static func validate(_ options: Options, now: Timestamp) throws {
            guard let text = options.until else { return }
            guard let until = Timestamp(iso8601: text) else {
                throw ValidationError("--until must be a time like 2026-11-23T04:00:00Z")
            }
            if until <= now {
                throw ValidationError("--until \(text) is not in the future (now: \(now.iso8601(milliseconds: false))); a card buried until then would not be buried")
            }
        }

        static func action(_ options: Options, now: Timestamp, config: VaultConfig) -> ReviewAction {
            let end = options.until.flatMap { Timestamp(iso8601: $0) } ?? StudyCalendar(config).end(containing: now)
            return .bury(until: end)
        }
    }
}
