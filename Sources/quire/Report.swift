import QuireTerminal
import ArgumentParser
import QuireApp
import QuireReport
import QuireSystem
import QuireVault

extension Quire {
    /// `quire report [QUERY] [--out FILE]`.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "The statistics as one self-contained HTML page with charts.",
            discussion: """
                The sections and numbers of 'quire stats' as inline SVG charts: no script, nothing fetched from \
                the network, light and dark colour schemes. Written to --out FILE (replaced atomically), or to \
                standard output when it is not a terminal.

                Example: quire report --out stats.html deck:Biology
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var figures: StatisticsOptions
        @Option(help: ArgumentHelp("Write the page to this file.", valueName: "FILE")) var out: String?
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards, e.g. deck:Biology.", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            if out == nil, Output.isTerminal {
                throw ValidationError("the report is an HTML page: give --out FILE, or redirect standard output")
            }
            if out?.isEmpty == true { throw ValidationError("--out needs a file name") }
        }

        func run() throws {
            let computed = try figures.compute(options, query: query)
            let root = computed.loaded.vault.root
            let name = root.split(separator: "/").last.map(String.init) ?? "Vault"
            let report = StatisticsReport(statistics: computed.statistics, curation: computed.curation, title: name,
                                          query: query.joined(separator: " "), generated: String(computed.now.description.prefix(16)) + " UTC")
            let html = report.html()
            if let out {
                try OutputFile.write(Array(html.utf8), to: out, what: "report")
                Output.line("Report written to \(out)")
            } else {
                Output.write(html)
            }
            try computed.loaded.finish()
            Output.exitWithoutFreeing()
        }
    }
}
