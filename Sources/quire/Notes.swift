import QuireTerminal
import ArgumentParser
import QuireApp
import QuireCuration
import QuireModel
import QuireSupport

extension NoteCycle: ExpressibleByArgument {}

extension Quire {
    /// `quire notes [--cycle LEVEL] [QUERY]`.
    struct Notes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notes",
            abstract: "The notes' timeline: daily notes by week, weekly ones by month, monthly and yearly ones by year.",
            discussion: """
                Each group is headed by where its curation review stands (pending, in progress, completed). \
                Archived notes are left out (quire list --notes finds them). See docs/FORMAT.md §2.2.

                Example: quire notes --cycle weekly
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Option(help: "daily (every note), weekly, monthly or yearly (the notes kept that far).")
        var cycle: NoteCycle = .daily
        @Argument(parsing: .allUnrecognized, help: "A query selecting notes, e.g. tag:habits.", completion: .custom(QueryCompletion.words))
        var query: [String] = []

        func validate() throws { try UnknownOptions.reject(query, of: Self.self) }

        func run() throws {
            let q = try options.query(query)
            let context = try CurationContext(options)
            let index = context.loaded.index
            let selected = Set(index.notes(matching: q, now: context.now, dayEnd: try context.loaded.dayEnd(at: context.now)).map { index.notes[$0].path })
            let groups = context.curation.timeline(cycle) { selected.contains($0.path) }
            // Categories in their colours on a terminal.
            let config = try LoadedVault.settings(of: context.loaded.vault).config
            var colors: [String: String] = [:]
            if Output.useColor { for c in config.categories { colors[c.name.lowercased()] = c.color } }
            if listing.json {
                Output.line(JSONValue.array(groups.map { group in
                    .object([("period", .string(group.period.description)), ("title", .string(group.period.title)),
                             ("review", group.status.map { CurationContext.json($0) } ?? .null),
                             ("notes", .array(group.notes.map(Self.json)))])
                }).serialized(pretty: true))
                return try context.loaded.finish()
            }
            if groups.isEmpty { Output.line("No \(cycle == .daily ? "" : cycle.rawValue + " ")notes.") }
            for (n, group) in groups.enumerated() {
                if n > 0 { Output.line() }
                var head = group.period.title
                if let s = group.status {
                    head += " · \(s.period.review.rawValue) review \(s.state.rawValue) (\(Plural.counted(s.total, "note")): \(s.kept) kept, \(s.archived) archived, \(s.left) left)"
                }
                Output.line(head)
                Table.print(group.notes.map(Self.row), tabs: !Output.isTerminal, width: Output.isTerminal ? Output.width : nil,
                            indent: 2) { row, column, text in
                    guard column == 2, let c = group.notes[row].category, let color = colors[c.lowercased()] else { return text }
                    return CategoryCommand.List.colored(text, color)
                }
            }
            try context.loaded.finish()
        }

        static func row(_ note: CurationNote) -> [String] {
            [CurationPeriod.dateText(note.created) + (note.createdInferred ? "?" : ""), note.title,
             note.category.map { "[\($0)]" } ?? "", note.source.map { $0 + (note.sourceType.map { " (\($0))" } ?? "") } ?? "",
             note.tags.map { "#" + $0.name }.joined(separator: " ")]
        }

        static func json(_ note: CurationNote) -> JSONValue {
            .object([("path", .string(note.path)), ("title", .string(note.title)), ("cycle", .string(note.cycle.rawValue)),
                     ("created", .string(CurationPeriod.dateText(note.created))), ("created_inferred", .bool(note.createdInferred)),
                     ("category", note.category.map(JSONValue.string) ?? .null), ("source", note.source.map(JSONValue.string) ?? .null),
                     ("source_type", note.sourceType.map(JSONValue.string) ?? .null),
                     ("tags", .array(note.tags.map { .string($0.name) }))])
        }
    }
}
