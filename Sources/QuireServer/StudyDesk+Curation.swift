import QuireApp
import QuireCuration
import QuireModel
import QuireSupport

/// The weekly, monthly and yearly keep-or-archive reviews on the page, as `quire curate` runs
/// them: one ``CurationSession`` per page.
extension StudyDesk {
    /// The curation reviews due today, oldest first.
    func curationDue() throws(ServerError) -> [PeriodStatus] {
        let context = try curationContext()
        return context.curation.pending(today: context.today)
    }

    /// Curation over the live index, with the vault's settings as they are on disk.
    private func curationContext() throws(ServerError) -> CurationContext {
        do { return try CurationContext(loaded: LoadedVault(vault, index: live.index), now: clock.peek()) } catch { throw .app(error) }
    }

    /// Starts the oldest due review of `review` (weekly, monthly, yearly); its first note.
    public func startCuration(_ review: String) throws(ServerError) -> JSONValue {
        guard let kind = CurationReview(rawValue: review) else { throw .badRequest("no review '\(review)' (weekly, monthly or yearly)") }
        let context = try curationContext()
        guard let period = context.curation.oldestPending(kind, today: context.today) else {
            throw .badRequest("no \(review) review is due")
        }
        var generator = SystemRandomNumberGenerator()
        let device: String
        do { device = try vault.deviceID(using: &generator) } catch { throw .app(.device(error.description)) }
        let session = CurationSession(context: context, period: period, writer: CurationWriter(vault: vault, device: device), clock: clock)
        do { try session.start() } catch { throw .app(error) }
        let id = newID()
        curations[id] = session
        remember(id)
        return try curationState(id)
    }

    /// What the page shows of a curation review: the note (its facts and its text), or the end.
    public func curationState(_ id: String, message: String? = nil) throws(ServerError) -> JSONValue {
        guard let session = curations[id] else { throw .noSession }
        var fields: [(String, JSONValue)] = [
            ("curation", .string(id)), ("heading", .string(session.heading)), ("message", .optional(message)),
            ("warnings", .array(session.warnings.map { .string($0) })),
            ("position", .int(session.position + 1)), ("total", .int(session.notes.count)),
            ("done", .bool(session.isAtEnd)),
        ]
        if !session.isAtEnd {
            let i = session.position
            let note = session.notes[i]
            let body = session.writer.body(of: note) ?? ""
            fields.append(("note", .object([
                ("path", .string(note.path)), ("title", .string(note.title)), ("facts", .string(session.facts(i))),
                ("location", .string(session.location(i))), ("cards", .int(note.cards)),
                ("html", .string(cards.html(body, notePath: note.path))),
            ])))
        }
        return .object(fields)
    }

    /// A key of the review: `keep`, `archive`, `skip`, `undo`, `previous`, `next`, or `finish`
    /// (records the session's end and says its summary).
    public func curate(_ id: String, _ key: String) throws(ServerError) -> JSONValue {
        guard var session = curations[id] else { throw .noSession }
        var message: String?
        switch key {
        case "keep": message = session.decide(.keep)
        case "archive": message = session.decide(.archive)
        case "skip": message = session.skip()
        case "undo": message = session.undo()
        case "previous": session.previous()
        case "next": session.next()
        case "finish":
            let lines: [String]
            do { lines = try session.finish() } catch { throw .app(error) }
            curations[id] = nil
            return .object([("curation", .string(id)), ("finished", .bool(true)), ("message", .string(lines.joined(separator: " ")))])
        default: throw .badRequest("no curation key '\(key)'")
        }
        curations[id] = session
        return try curationState(id, message: message)
    }
}
