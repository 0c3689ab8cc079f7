import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireModel
import QuireScheduling
import QuireIndex
import QuireReview
import QuireStudy

extension StudyContext {
    /// The vault of `options` loaded for studying: files that cannot be read and warnings about the
    /// settings said on standard error; a settings file that cannot be read is an error.
    /// - Parameter readLog: whether to read the log into ``history`` and ``stats``.
    init(_ options: VaultOptions, readLog: Bool = true) throws {
        let loaded = try LoadedVault(options)
        let (config, diagnostics) = try LoadedVault.settings(of: loaded.vault)
        Output.diagnostics(diagnostics, root: loaded.vault.root, toStandardError: true, color: false)
        self.init(loaded, config: config, now: options.now, readLog: readLog)
    }
}
