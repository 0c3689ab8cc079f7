import QuireApp
import QuireSearch
import QuireSupport

/// Search on the page, as `quire search` ranks: the notes' words, and their meaning when the model
/// is installed.
extension StudyDesk {
    /// The hits for `text`, best first: place, heading, card, and the snippet as runs of text
    /// with the matched ones marked (the page draws them without ever reading HTML).
    public func search(_ text: String, limit: Int = 30) throws(ServerError) -> JSONValue {
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty else { return .object([("hits", .array([]))]) }
        guard words.utf8.count <= 500 else { throw .badRequest("a search of at most 500 characters") }
        let search: VaultSearch
        if let known = searcher {
            search = known.following(LoadedVault(vault, index: live.index))
            do { try search.index.refresh(from: live.index, vault: vault) } catch { throw .app(.search("\(error)")) }
        } else {
            do { search = try VaultSearch(LoadedVault(vault, index: live.index)) } catch { throw .app(error) }
            searcher = search
        }
        // Query words keep only what they select (`deck:Biology cell`), as on the command line.
        let hits: [SearchHit]
        do { hits = try search.search(words.split(separator: " ").map(String.init), mode: nil, limit: limit, now: clock.peek()).hits } catch {
            throw .badRequest(error.description)
        }
        let titles = Dictionary(live.index.notes.map { ($0.path, $0.title) }) { a, _ in a }
        return .object([
            ("semantic", .bool(search.encoder != nil)),
            ("hits", .array(hits.map { hit in
                .object(VaultSearch.fields(of: hit) + [("title", .optional(titles[hit.path])), ("snippet", Self.runs(hit.snippet))])
            })),
        ])
    }

    /// A snippet as `[[text, marked], …]`.
    static func runs(_ snippet: String) -> JSONValue {
        var runs: [JSONValue] = []
        var current = "", marked = false
        func flush() {
            if !current.isEmpty { runs.append(.array([.string(current), .bool(marked)])) }
            current = ""
        }
        for c in snippet {
            if String(c) == SearchIndex.marks.open { flush(); marked = true } else if String(c) == SearchIndex.marks.close { flush(); marked = false } else {
                current.append(c)
            }
        }
        flush()
        return .array(runs)
    }

    /// A note of the index to read at a hit (its line breaks shown, as Obsidian shows them): its title, and its body as the page's HTML in two
    /// parts, before the hit's line and from it (the page scrolls to the second).
    public func note(_ path: String, line: Int) throws(ServerError) -> JSONValue {
        guard let note = live.index.notes.first(where: { $0.path == path }) else { throw .badRequest("no note '\(path)'") }
        guard let view = NoteView(path: path, line: line, in: vault) else { throw .badRequest("the note '\(path)' cannot be read") }
        return .object([("path", .string(path)), ("title", .string(note.title)), ("line", .int(max(1, line))),
                        ("before", .string(cards.html(view.before, notePath: path, side: true))), ("from", .string(cards.html(view.from, notePath: path, side: true)))])
    }

    /// The full path and line of a note of the index, for the editor (never a path the page made up).
    public func noteTarget(_ path: String, line: Int) throws(ServerError) -> (path: String, line: Int) {
        guard live.index.notes.contains(where: { $0.path == path }) else { throw .badRequest("no note '\(path)'") }
        return (vault.fullPath(path), max(1, line))
    }
}
