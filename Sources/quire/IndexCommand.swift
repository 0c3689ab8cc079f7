import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireSearch

extension Quire {
    /// `quire index`: the search index brought fully up to date, vectors included.
    struct IndexCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "index",
            abstract: "Bring the search index up to date: the notes' words and, with the model installed, their vectors.",
            discussion: """
                Searches do this themselves for a few changed notes; run it after installing the model or \
                adding many notes, or leave `quire watch` running. Vectors are computed on every core with \
                a progress bar; Ctrl-C keeps those already computed. The whole index is read once and made \
                anew from the notes if any of it is damaged.

                Example: quire index
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Words only: compute no vectors.") var lexical = false

        func run() throws {
            let loaded = try LoadedVault(options)
            let context = try SearchContext(loaded, semantic: !lexical, embedAll: true, verify: true)
            let (chunks, embedded) = try { () throws(SearchError) in try context.index.counts() }()
            var line = "Search index: \(Plural.counted(loaded.index.notes.count, "note")), \(Plural.counted(chunks, "chunk"))"
            if context.encoder != nil { line += ", \(embedded) with vectors" }
            Output.line(line + ".")
            try loaded.finish()
        }
    }
}
