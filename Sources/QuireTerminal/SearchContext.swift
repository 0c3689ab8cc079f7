import Foundation
import QuireApp
import QuireEmbedding
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireSupport
import QuireSearch
import QuireSystem

/// The search index of a loaded vault for a command (search, ask, related, index): QuireApp's
/// ``VaultSearch`` with its progress drawn as bars and its notices said on standard error.
package struct SearchContext {
    package let search: VaultSearch
    package var loaded: LoadedVault { search.loaded }
    package var index: SearchIndex { search.index }
    /// The encoder, when the model is installed and semantic ranking is wanted.
    package var encoder: SentenceEncoder? { search.encoder }

    /// The search index's file in the vault (FORMAT.md §1).
    package static let indexFile = VaultSearch.indexFile

    /// Opens and refreshes the index. `semantic`: load the model if installed; `embedAll`: compute
    /// every missing vector (else at most ``VaultSearch/inlineEmbedding``, saying so when more are
    /// missing); `verify`: read the whole index and make it anew when any of it is garbled.
    package init(_ loaded: LoadedVault, semantic: Bool = true, embedAll: Bool = false, verify: Bool = false) throws {
        var words: ProgressBar?, vectors: ProgressBar?
        do {
            search = try VaultSearch(loaded, semantic: semantic, embedAll: embedAll, verify: verify, progress: { phase, done, total in
                switch phase {
                case .words:
                    if words == nil { words = ProgressBar("Indexing for search", total: total) }
                    words?.update(done)
                case .vectors:
                    if vectors == nil { vectors = ProgressBar("Computing vectors", total: total, minimum: 1) }
                    vectors?.update(done)
                }
            }, notice: Self.say)
        } catch { throw CLIError(error.description) }
    }

    /// A notice about the search, on standard error.
    package static func say(_ notice: VaultSearch.Notice) {
        switch notice {
        case .wordsOnly(let shown):
            if !shown {
                Output.error("quire: note: ranking by words only; `quire model install` adds ranking by meaning (semantic search), all on this machine.")
            }
        case .modelFailed(let message):
            Output.error("quire: warning: \(message); ranking by words only (`quire model install` installs the model again)")
        case .noCacheForVectors:
            Output.error("quire: note: ranking by words only: this folder has no .quire folder to keep the notes' vectors in "
                         + "between commands (`quire init` makes one, then `quire index` computes them).")
        case .indexRebuilt(let reason):
            Output.error("quire: note: \(TerminalText.visible(reason)); the search index was made anew from the notes.")
        case .vectorsMissing(let missing, let chunks):
            Output.error("quire: note: \(missing) of \(chunks) chunks have no vector yet, so meaning ranks only the others; "
                         + "`quire index` computes them (about \(Self.duration(chunks: missing))).")
        }
    }

    /// The hits that `query` keeps (a card hit by its card, a prose hit by its note); all of them without a query.
    package func kept(_ hits: [SearchHit], by query: Query?, now: Timestamp) throws(AppError) -> [SearchHit] { try search.kept(hits, by: query, now: now) }

    /// A hit's place as JSON fields (docs/JSON.md).
    package static func fields(of hit: SearchHit) -> [(String, JSONValue)] { VaultSearch.fields(of: hit) }

    /// A hit's place for a terminal: `path:line`, then the page (`, p. 12`) or the time in the
    /// recording (`, 12:34`) its note records.
    package static func place(of hit: SearchHit) -> String {
        var text = TerminalText.visible(hit.path) + ":\(hit.lines.lowerBound)"
        if let page = hit.page { text += ", p. \(page)" }
        if let time = hit.time { text += ", " + TimeAnchor.clock(time) }
        return text
    }

    /// A rough time for computing `chunks` vectors on this machine's cores (about 10 a second per core).
    package static func duration(chunks: Int) -> String {
        let seconds = chunks / (10 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        return seconds < 90 ? "\(max(1, seconds)) s" : "\(seconds / 60) min"
    }
}
