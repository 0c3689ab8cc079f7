import QuireTerminal
import Foundation
import QuireApp
import QuireCuration
import QuireModel
import QuireScheduling
import QuireSupport
import QuireSystem

extension CurationContext {
    init(_ options: VaultOptions) throws {
        let loaded = try LoadedVault(options)
        self.init(loaded: loaded, config: try LoadedVault.settings(of: loaded.vault).config, now: options.now)
    }
}
