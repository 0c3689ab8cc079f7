import ArgumentParser
import QuireModel
import QuireScheduling

extension Quire {
    /// `quire bury QUERY [--until TIME]`.
    struct Bury: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bury cards: they do not come up before the next study day (or --until).")

        @OptionGroup var options: VaultOptions
        @Option(help: "Bury until this time instead of the start of the next study day.")
        var until: String?
        @OptionGroup var action: CardActionOptions

        func validate() throws {
            if let until, Timestamp(iso8601: until) == nil { throw ValidationError("--until must be a time like 2026-11-23T04:00:00Z") }
        }

        func run() throws {
            let now = options.now
            var context = try ReviewContext(options)
            let rollover = context.config.dayRollover
            let offset = Clock.utcOffset(at: now)
            let end = until.flatMap { Timestamp(iso8601: $0) }
                ?? Day(containing: now, utcOffsetSeconds: offset, rolloverHour: rollover).advanced(by: 1)
                    .start(utcOffsetSeconds: offset, rolloverHour: rollover)
            try context.apply({ _ in .bury(until: end) }, action, now: now, verb: "buried")
        }
    }
}
