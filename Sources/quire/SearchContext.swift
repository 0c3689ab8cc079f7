import Foundation
import QuireApp
import QuireEmbedding
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireSupport
import QuireSearch
import QuireSystem

/// The search index of a loaded vault, brought up to date for a command (search, ask, related,
/// index): the notes' words always, their vectors when the model is installed.
struct SearchContext {
    let loaded: LoadedVault
    let index: SearchIndex
    /// The encoder, when the model is installed and semantic ranking is wanted.
    let encoder: SentenceEncoder?

    /// The search index's file in the vault (FORMAT.md §1).
    static let indexFile = Vault.folderName + "/cache/search.sqlite"

    /// Chunks without a vector computed inline by a search (a few seconds at most); more wait for
    /// `quire index`, the search ranking meanwhile over the vectors there are.
    static let inlineEmbedding = 64

    /// Opens and refreshes the index. `semantic`: load the model if installed; `embedAll`: compute
    /// every missing vector (else at most ``inlineEmbedding``, saying so when more are missing).
    init(_ loaded: LoadedVault, semantic: Bool = true, embedAll: Bool = false) throws {
        self.loaded = loaded
        let vault = loaded.vault
        // The index: in the vault's cache when it has a .quire folder, else in memory.
        var path = ":memory:"
        let cache = vault.io.linkStamp(vault.root + "/" + Vault.folderName)?.isDirectory == true
        if cache {
            do {
                let folder = try vault.internalFolder(Vault.folderName + "/cache")
                try vault.io.makeDirectories(folder)
                path = try vault.internalPath(Self.indexFile)
            } catch { throw CLIError(error.description) }
        }
        do {
            index = try SearchIndex.openOrRebuild(path: path, io: vault.io)
            var bar: ProgressBar?
            try index.refresh(from: loaded.index, vault: vault) { done, total in
                if bar == nil { bar = ProgressBar("Indexing for search", total: total) }
                bar?.update(done)
            }
        } catch { throw CLIError("\(error)") }
        guard semantic, let folder = EmbeddingModel.folder(environment: ProcessInfo.processInfo.environment),
              EmbeddingModel.isInstalled(in: folder) else {
            encoder = nil
            if semantic { Self.hintOnce(vault: vault, cache: cache) }
            return
        }
        do { encoder = try EmbeddingModel.load(from: folder) } catch {
            Output.error("quire: warning: \(error.description); ranking by words only (`quire model install` installs the model again)")
            encoder = nil
            return
        }
        guard let encoder else { return }
        do {
            let (chunks, embedded) = try index.counts()
            let missing = chunks - embedded
            if embedAll || missing <= Self.inlineEmbedding {
                var bar: ProgressBar?
                try index.embedMissing(with: encoder) { done, total in
                    if bar == nil { bar = ProgressBar("Computing vectors", total: total, minimum: 1) }
                    bar?.update(done)
                }
            } else if !cache {
                Output.error("quire: note: ranking by words only: this folder has no .quire folder to keep the notes' vectors in "
                             + "between commands (`quire init` makes one, then `quire index` computes them).")
            } else {
                Output.error("quire: note: \(missing) of \(chunks) chunks have no vector yet, so meaning ranks only the others; "
                             + "`quire index` computes them (about \(Self.duration(chunks: missing))).")
            }
        } catch { throw CLIError("\(error)") }
    }

    /// The hits that `query` keeps (a card hit by its card, a prose hit by its note; a hit of a note
    /// the index no longer has is kept), in order; all of them without a query.
    func kept(_ hits: [SearchHit], by query: Query?, now: Timestamp) -> [SearchHit] {
        guard let query else { return hits }
        let dayEnd = loaded.dayEnd(at: now)
        let byPath = Dictionary(loaded.index.notes.map { ($0.path, $0) }) { a, _ in a }
        return hits.filter { hit in
            guard let note = byPath[hit.path] else { return true }
            if let id = hit.card, let card = note.cards.first(where: { $0.id == id }) {
                return query.matches(card: card, in: note, now: now, dayEnd: dayEnd)
            }
            return query.matches(note: note, now: now, dayEnd: dayEnd)
        }
    }

    /// A hit's place as JSON fields (docs/JSON.md): `path`, `line`, `last_line`, `page`, `time`,
    /// `heading_path`, `card`.
    static func fields(of hit: SearchHit) -> [(String, JSONValue)] {
        [("path", .string(hit.path)), ("line", .int(hit.lines.lowerBound)), ("last_line", .int(hit.lines.upperBound)),
         ("page", .optional(hit.page)), ("time", .optional(hit.time)), ("heading_path", .array(hit.headingPath.map(JSONValue.string))),
         ("card", hit.card.map { .string($0.rawValue) } ?? .null)]
    }

    /// A hit's place for a terminal: `path:line`, then the page (`, p. 12`) or the time in the
    /// recording (`, 12:34`) its note records.
    static func place(of hit: SearchHit) -> String {
        var text = TerminalText.visible(hit.path) + ":\(hit.lines.lowerBound)"
        if let page = hit.page { text += ", p. \(page)" }
        if let time = hit.time { text += ", " + TimeAnchor.clock(time) }
        return text
    }

    /// A rough time for computing `chunks` vectors on this machine's cores (about 10 a second per core).
    static func duration(chunks: Int) -> String {
        let seconds = chunks / (10 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        return seconds < 90 ? "\(max(1, seconds)) s" : "\(seconds / 60) min"
    }

    /// Says once per vault (a mark in its cache) how to turn semantic search on.
    static func hintOnce(vault: Vault, cache: Bool) {
        let mark = cache ? try? vault.internalPath(Vault.folderName + "/cache/semantic-search-hint") : nil
        if let mark, vault.io.stamp(mark) != nil { return }
        Output.error("quire: note: ranking by words only; `quire model install` adds ranking by meaning (semantic search), all on this machine.")
        if let mark { try? vault.io.createNew(mark, with: Array("shown\n".utf8)) }
    }
}
