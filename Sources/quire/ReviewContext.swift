import QuireTerminal
import QuireApp

extension ReviewContext {
    /// The vault of `options`, ready to record reviews; warnings about its settings said on
    /// standard error, and the errors of its files when it has to be indexed.
    init(_ options: VaultOptions) throws {
        try self.init(vault: options.open(), cached: !options.noCache)
        Output.diagnostics(settingsDiagnostics, root: vault.root, toStandardError: true, color: false)
        onIndexed = { loaded in Output.diagnostics(loaded.errors, root: loaded.vault.root, toStandardError: true, color: false) }
    }
}
