import QuireApp
import QuireIndex
import QuireReport
import QuireVault

extension StudyDesk {
    /// The statistics report's page for every card, from the live index (the watcher keeps it
    /// current) and the logs as they are now: nothing is indexed again, nothing kept after.
    public func report() throws(ServerError) -> String {
        let context = try studyContext()
        let figures = VaultFigures(context, query: .all)
        let name = vault.root.split(separator: "/").last.map(String.init) ?? "Vault"
        return StatisticsReport(statistics: figures.statistics, curation: figures.curation, title: name, query: "",
                                generated: String(context.now.description.prefix(16)) + " UTC").html()
    }
}
