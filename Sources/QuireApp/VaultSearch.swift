import Foundation
import QuireEmbedding
import QuireIndex
import QuireModel
import QuireSearch
import QuireSupport
import QuireSystem
import QuireVault

/// The search index of a loaded vault, brought up to date for an action of any front end (search,
/// ask, related, index, the web page): the notes' words always, their vectors when the model is
/// installed.
public struct VaultSearch {
    public private(set) var loaded: LoadedVault
    public let index: SearchIndex
    /// The encoder, when the model is installed and semantic ranking is wanted.
    public let encoder: SentenceEncoder?
    /// Whether the index lives in the vault's cache (a `.quire` folder), not only in memory.
    public let isCached: Bool

    /// The search index's file in the vault (FORMAT.md §1).
    public static let indexFile = Vault.folderName + "/cache/search.sqlite"

    /// Chunks without a vector computed inline by a search (a few seconds at most); more wait for
    /// `quire index`, the search ranking meanwhile over the vectors there are.
    public static let inlineEmbedding = 64

    /// What a front end may tell the user about the search it got.
    public enum Notice: Sendable, Equatable {
        /// No model installed: ranking by words only (`hintShown`: said before in this vault).
        case wordsOnly(hintShown: Bool)
        /// The model is installed but did not load.
        case modelFailed(String)
        /// No `.quire` folder keeps the vectors between actions.
        case noCacheForVectors
        /// Chunks still without a vector (more than a search computes inline).
        case vectorsMissing(missing: Int, chunks: Int)
        /// The index file could not be used (damaged, not SQLite, not Quire's schema) and was made anew.
        case indexRebuilt(String)
    }

    /// What is being done, for a progress bar: indexing words, then computing vectors.
    public enum Phase: Sendable { case words, vectors }

    /// Opens and refreshes the index. `semantic`: load the model if installed; `embedAll`: compute
    /// every missing vector (else at most ``inlineEmbedding``); `verify`: read the whole index
    /// once (``SearchIndex/damage()``) and make it anew when any of it is garbled.
    public init(_ loaded: LoadedVault, semantic: Bool = true, embedAll: Bool = false, verify: Bool = false,
                progress: (Phase, _ done: Int, _ total: Int) -> Void = { _, _, _ in },
                notice: (Notice) -> Void = { _ in }) throws(AppError) {
        self.loaded = loaded
        let vault = loaded.vault
        // The index: in the vault's cache when it has a .quire folder, else in memory.
        var path = ":memory:"
        isCached = vault.io.linkStamp(vault.root + "/" + Vault.folderName)?.isDirectory == true
        do {
            if isCached {
                let folder = try vault.internalFolder(Vault.folderName + "/cache")
                try vault.io.makeDirectories(folder)
                path = try vault.internalPath(Self.indexFile)
            }
            let opened = try SearchIndex.openOrRebuild(path: path, io: vault.io) { notice(.indexRebuilt($0)) }
            func refresh() throws(SearchError) { try opened.refresh(from: loaded.index, vault: vault) { progress(.words, $0, $1) } }
            /// Damage found while reading it: the index made anew once, from the notes.
            func startOver(_ why: String) throws(SearchError) {
                notice(.indexRebuilt(why))
                try opened.startOver(io: vault.io)
                try refresh()
            }
            do { try refresh() } catch {
                // A page cut short, found by the refresh.
                guard isCached else { throw error }
                try startOver(error.description)
            }
            if verify, isCached, let damage = opened.damage() { try startOver(damage) }
            index = opened
        } catch { throw .search("\(error)") }
        guard semantic else {
            encoder = nil
            return
        }
        let installed: SentenceEncoder?
        do { installed = try EmbeddingModel.loadInstalled(environment: ProcessInfo.processInfo.environment) } catch {
            notice(.modelFailed(error.description))
            encoder = nil
            return
        }
        encoder = installed
        guard let encoder = installed else {
            notice(.wordsOnly(hintShown: Self.hintShown(vault: vault, cache: isCached)))
            return
        }
        do {
            let (chunks, embedded) = try index.counts()
            let missing = chunks - embedded
            // Nothing missing: nothing to look for (at a million chunks, looking is a second).
            if embedAll || (1...Self.inlineEmbedding).contains(missing) {
                try index.embedMissing(with: encoder, sweep: embedAll) { progress(.vectors, $0, $1) }
            } else if missing > 0, !isCached {
                notice(.noCacheForVectors)
            } else if missing > 0 {
                notice(.vectorsMissing(missing: missing, chunks: chunks))
            }
        } catch { throw .search("\(error)") }
    }

    /// The same index and model over `loaded`, the vault as it is now (a front end that keeps the
    /// index current as notes change: the hits kept are those of its notes now).
    public func following(_ loaded: LoadedVault) -> VaultSearch {
        var copy = self
        copy.loaded = loaded
        return copy
    }

    /// Runs `work` on the index; when it finds the index's file damaged (a full-text block
    /// garbled, a page cut short: found only when read), the index is made anew from the notes
    /// once and `work` runs again.
    func recovering<T>(_ work: () throws(SearchError) -> T) throws(SearchError) -> T {
        do { return try work() } catch {
            guard isCached, SearchIndex.isDamage(error) else { throw error }
            try index.startOver(io: loaded.vault.io)
            _ = try index.refresh(from: loaded.index, vault: loaded.vault)
            return try work()
        }
    }

    /// The hits of notes of the vault that `query` keeps (a card hit by its card, a prose hit by
    /// its note), in order; without a query, every hit of a note of the vault. A hit whose path is
    /// no note of the vault (planted in a shared index) is never shown.
    public func kept(_ hits: [SearchHit], by query: Query?, now: Timestamp) throws(AppError) -> [SearchHit] {
        let byPath = Dictionary(loaded.index.notes.map { ($0.path, $0) }) { a, _ in a }
        guard let query else { return hits.filter { byPath[$0.path] != nil } }
        let dayEnd = try loaded.dayEnd(at: now)
        return hits.filter { hit in
            guard let note = byPath[hit.path] else { return false }
            if let id = hit.card, let card = note.cards.first(where: { $0.id == id }) {
                return query.matches(card: card, in: note, now: now, dayEnd: dayEnd)
            }
            return query.matches(note: note, now: now, dayEnd: dayEnd)
        }
    }

    /// A hit's place as JSON fields (docs/JSON.md): `path`, `line`, `last_line`, `page`, `time`,
    /// `heading_path`, `card`.
    public static func fields(of hit: SearchHit) -> [(String, JSONValue)] {
        [("path", .string(hit.path)), ("line", .int(hit.lines.lowerBound)), ("last_line", .int(hit.lines.upperBound)),
         ("page", .optional(hit.page)), ("time", .optional(hit.time)), ("heading_path", .array(hit.headingPath.map(JSONValue.string))),
         ("card", hit.card.map { .string($0.rawValue) } ?? .null)]
    }

    /// Whether the hint on semantic search was shown in this vault before; marks it shown (a mark in
    /// its cache), so a front end says it once per vault.
    static func hintShown(vault: Vault, cache: Bool) -> Bool {
        let mark = cache ? try? vault.internalPath(Vault.folderName + "/cache/semantic-search-hint") : nil
        if let mark, vault.io.stamp(mark) != nil { return true }
        if let mark { try? vault.io.createNew(mark, with: Array("shown\n".utf8)) }
        return false
    }
}
