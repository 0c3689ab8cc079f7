import Foundation
import QuireEmbedding
import QuireIndex
import QuireModel
import QuireSearch
import QuireSupport
import QuireVault

/// A search answered from the two caches alone, without loading the vault's index: the index
/// cache's check (each folder and file still with its stamp, as `quire due --prompt` checks; a
/// few changed notes parsed again) gives every note's digest, and the search index is brought up
/// to date for the notes whose digest it does not hold — at most ``maximumChanged`` of them, read
/// and cut into chunks, their missing vectors computed — and queried. Anything else (more
/// changes, a file with an error, a query filter that needs the notes, vectors still missing
/// elsewhere, an index that cannot be opened) answers nil, and the caller searches through
/// ``VaultSearch``, which loads the vault. Both ways give the same hits.
public enum QuickSearch {
    /// How many notes this way brings up to date before it leaves the work to ``VaultSearch``.
    public static let maximumChanged = 64

    /// The hits for `words` as ``VaultSearch/search(_:mode:scope:limit:now:)`` finds them, or nil
    /// when this way cannot answer. `clock`: the wall-clock time, which tells a file modified in
    /// the same tick as the cache was written (read again, as the cache's own checks do).
    public static func search(_ words: [String], in vault: Vault, mode: SearchMode?, scope: SearchScope = .everything,
                              limit: Int, clock: Timestamp,
                              notice: (VaultSearch.Notice) -> Void = { _ in }) -> (text: String, hits: [SearchHit])? {
        guard let (text, filters, _) = try? VaultSearch.split(words, wholeWordsOnly: false), filters.isEmpty else { return nil }
        let asked = scope == .everything ? limit : limit * 20
        guard let ready = prepared(vault, semantic: mode != .lexical, clock: clock, early: text, limit: asked, notice: notice)
        else { return nil }
        if case .hits(let hits) = ready { return (text, Array(hits.filter(scope.keeps).prefix(limit))) }
        guard case .index(let index, let encoder, _) = ready,
              let hits = try? index.find(text, mode: encoder == nil ? .lexical : mode ?? .hybrid, encoder: encoder, limit: asked)
        else { return nil }
        guard let kept = try? index.listed(hits) else { return nil }
        return (text, Array(kept.filter(scope.keeps).prefix(limit)))
    }

    /// `quire ask` as ``VaultSearch/ask(_:chunks:model:now:)`` answers it, or nil when this way
    /// cannot: the cards among the passages read from their notes' files, not from the vault's
    /// index.
    public static func ask(_ words: [String], in vault: Vault, chunks: Int, model: LocalLanguageModel?, clock: Timestamp,
                           notice: (VaultSearch.Notice) -> Void = { _ in }) -> AskedQuestion? {
        guard let (question, filters, _) = try? VaultSearch.split(words, wholeWordsOnly: true), filters.isEmpty,
              case .index(let index, let encoder, let cache)? = prepared(vault, semantic: true, clock: clock, notice: notice),
              let hits = try? index.find(question, mode: .hybrid, encoder: encoder, limit: chunks, matchAll: false),
              let kept = try? index.listed(hits)
        else { return nil }
        var retrieved: [(hit: SearchHit, text: String)] = []
        for hit in kept where retrieved.count < chunks {
            do { if let text = try index.text(ofChunk: hit.chunk) { retrieved.append((hit, text)) } } catch { return nil }
        }
        // A card's sides from its note, read once per note.
        let paths = Dictionary(retrieved.compactMap { item in item.hit.card.map { ($0, item.hit.path) } }) { first, _ in first }
        var cards: [String: [Card]] = [:]
        return VaultSearch.answer(question, retrieved: retrieved, encoder: encoder, model: model) { id in
            guard let path = paths[id] else { return nil }
            if cards[path] == nil { cards[path] = cache.readNote(root: vault.root, path: path)?.cards ?? [] }
            return cards[path]?.first { $0.id == id }
        }
    }

    /// What ``prepared(_:semantic:clock:early:limit:notice:)`` readies.
    enum Ready {
        /// The search by words done on another thread while the notes were checked: its hits.
        case hits([SearchHit])
        /// The index brought up to date, the model (when installed and wanted) and the cache.
        case index(SearchIndex, SentenceEncoder?, IndexCache)
    }

    /// The index brought up to date with the vault's notes (see the type), with the model loaded
    /// on another thread meanwhile when `semantic`; nil when this way cannot answer. With `early`
    /// text and not `semantic`, the search by words runs on another thread while the notes are
    /// checked (each about half the time), through its own connection: its hits are used when the
    /// index turns out to have been found holding exactly these notes, as of the state they were
    /// read from.
    static func prepared(_ vault: Vault, semantic: Bool, clock: Timestamp, early text: String? = nil, limit: Int = 0,
                         notice: (VaultSearch.Notice) -> Void) -> Ready? {
        // The model loads on another thread while the caches are checked (a tenth of a second each).
        let environment = ProcessInfo.processInfo.environment
        let model = !semantic ? nil : BackgroundValue { () -> Result<SentenceEncoder?, EmbeddingError> in
            Result { () throws(EmbeddingError) in try EmbeddingModel.loadInstalled(environment: environment) }
        }
        guard vault.io.linkStamp(vault.root + "/" + Vault.folderName)?.isDirectory == true,
              let cache = vault.cache,
              let path = try? vault.internalPath(VaultSearch.indexFile), vault.io.linkStamp(path)?.isRegularFile == true
        else { return nil }
        let early = semantic ? nil : text.map { text in
            BackgroundValue { () -> (token: UInt64?, hits: [SearchHit])? in try? SearchIndex(path: path).searchMarked(text, limit: limit) }
        }
        guard let summary = ScheduleSummary.load(root: vault.root, cache: cache, maximumParsed: maximumChanged, now: clock),
              !summary.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        if let found = early?.value, let token = found.token, token == Self.token(summary) { return .hits(found.hits) }
        guard let index = try? SearchIndex(path: path), (try? refresh(index, to: summary, cache: cache, in: vault)) == true
        else { return nil }
        guard let model else { return .index(index, nil, cache) }
        // A model that fails to load: the full way says so.
        guard case .success(let encoder) = model.value else { return nil }
        if let encoder {
            // The vectors of the notes just brought up to date are computed here, as the full
            // way computes a few; more missing: the full way says how many wait.
            guard let missing = try? index.missingVectors(), missing <= VaultSearch.inlineEmbedding,
                  missing == 0 || (try? index.embedMissing(with: encoder)) != nil else { return nil }
        } else {
            notice(.wordsOnly(hintShown: VaultSearch.hintShown(vault: vault, cache: true)))
        }
        return .index(index, encoder, cache)
    }

    /// Brings `index` up to date with the notes `summary` lists: false (nothing written) when more
    /// than ``maximumChanged`` notes differ, or a changed note's file no longer has the digest the
    /// summary has (it is being written: the full way reads the vault).
    static func refresh(_ index: SearchIndex, to summary: ScheduleSummary, cache: IndexCache, in vault: Vault) throws(SearchError) -> Bool {
        let token = Self.token(summary)
        if try index.isSynced(token) { return true }
        let (stored, changes) = try index.digestsAndChanges()
        let changed = summary.notes.filter { stored[$0.path] != $0.digest }
        var gone = Set(stored.keys)
        for note in summary.notes { gone.remove(note.path) }
        guard changed.count + gone.count <= maximumChanged else { return false }
        guard !changed.isEmpty || !gone.isEmpty else {
            // Current: said in the index, so that the next search reads no digest.
            try? index.markSynced(token, asOf: changes)
            return true
        }
        // Parsed by the summary when they changed since the index cache was written; else (the
        // cache written by a command that left the search index behind) read now.
        let parsed = Dictionary(summary.changedNotes.map { ($0.path, $0) }) { first, _ in first }
        var notes: [Note] = []
        for entry in changed {
            guard let note = parsed[entry.path] ?? cache.readNote(root: vault.root, path: entry.path),
                  note.contentDigest == entry.digest else { return false }
            notes.append(note)
        }
        try index.refresh(notes: notes, removing: gone.sorted(), vault: vault)
        return true
    }

    /// A digest of the notes `summary` lists, their paths and digests in its order.
    static func token(_ summary: ScheduleSummary) -> UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(summary.notes.count * 48)
        for note in summary.notes {
            bytes.append(contentsOf: note.path.utf8)
            bytes.append(0)
            withUnsafeBytes(of: note.digest.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Checksum64.of(bytes)
    }
}
