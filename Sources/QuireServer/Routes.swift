import Foundation
import Hummingbird
import NIOCore
import QuireSupport

/// The server's routes (listed on ``StudyServer``): each parses its request, asks the desk, and
/// answers JSON; errors are JSON too (`{"error": …}`), with a status that says whose they are.
struct Routes: Sendable {
    let desk: StudyDesk
    let feed: LiveFeed
    let settings: StudyServer.Settings
    /// The run's link key (``RequestGate``): the page learns it from `/api/links`.
    let linkKey: String

    /// Request bodies larger than this are refused (the page sends a few words).
    static let maximumBody = 64 << 10

    func add(to router: Router<BasicRequestContext>) {
        addFiles(to: router)
        addStudy(to: router)
        addSearchAndCuration(to: router)
        router.get("/api/events") { [feed] _, _ in
            let stream = feed.listen()
            var headers: HTTPFields = [.contentType: "text/event-stream"]
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "event: ready\ndata: {}\n\n"))
                for await event in stream { try await writer.write(ByteBuffer(string: event)) }
                try await writer.finish(nil)
            })
        }
    }

    /// The page, its script and style, KaTeX and highlight.js, a note's media, the report.
    private func addFiles(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Self.text(PageAssets.html, type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in Self.text(PageAssets.script, type: "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in Self.text(PageAssets.style, type: "text/css; charset=utf-8") }
        router.get("/katex/**") { request, _ in systemAsset(request.uri.path) }
        router.get("/hljs/**") { request, _ in systemAsset(request.uri.path) }
        router.get("/file/**") { [settings] request, _ in
            guard let file = VaultFiles.read(urlPath: request.uri.path, vault: settings.vault) else {
                return Self.failure(.notFound, "not found")
            }
            return Response(status: .ok, headers: [.contentType: file.type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
        router.get("/report") { [desk] _, _ in
            do throws(ServerError) { return Self.text(try await desk.report(), type: "text/html; charset=utf-8") } catch {
                return Self.failure(.internalServerError, "the statistics could not be made: \(error.description)")
            }
        }
    }

    /// The overview and study sessions: start, state, grade, check a typed answer, explain, retry,
    /// undo, the other keys, edit.
    private func addStudy(to router: Router<BasicRequestContext>) {
        router.get("/api/overview") { [desk] _, _ in await Self.answer { () throws(ServerError) in try await desk.overview() } }
        // What the page loads by address: the link key, the report's and the changes' addresses.
        router.get("/api/links") { [linkKey] _, _ in
            Self.json(.object([("key", .string(linkKey)), ("report", .string("/report?k=" + linkKey)),
                               ("events", .string("/api/events?k=" + linkKey))]))
        }
        router.post("/api/sessions") { [desk] request, _ in
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in try await desk.start(deck: body?["deck"], learnNew: body?["learn"] == "new") }
        }
        router.get("/api/sessions/:id") { [desk] _, context in
            let id = context.parameters.get("id") ?? ""
            return await Self.answer { () throws(ServerError) in try await desk.state(of: id) }
        }
        router.post("/api/sessions/:id/grade") { [desk] request, context in
            let id = context.parameters.get("id") ?? ""
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in
                try await desk.grade(id, card: body?["card"] ?? "", rating: body?["rating"] ?? "")
            }
        }
        router.post("/api/sessions/:id/check") { [desk] request, context in
            let id = context.parameters.get("id") ?? ""
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in
                try await desk.check(id, card: body?["card"] ?? "", typed: body?["typed"] ?? "")
            }
        }
        router.post("/api/sessions/:id/explain") { [desk] request, context in
            let id = context.parameters.get("id") ?? ""
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in try await desk.explain(id, card: body?["card"] ?? "") }
        }
        router.post("/api/sessions/:id/retry") { [desk] _, context in
            let id = context.parameters.get("id") ?? ""
            return await Self.answer { () throws(ServerError) in try await desk.retry(id) }
        }
        router.post("/api/sessions/:id/undo") { [desk] _, context in
            let id = context.parameters.get("id") ?? ""
            return await Self.answer { () throws(ServerError) in try await desk.undo(id) }
        }
        router.post("/api/sessions/:id/act") { [desk] request, context in
            let id = context.parameters.get("id") ?? ""
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in
                try await desk.act(id, card: body?["card"] ?? "", action: body?["action"] ?? "")
            }
        }
        router.post("/api/sessions/:id/edit") { [desk, settings] request, context in
            let id = context.parameters.get("id") ?? ""
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in
                let (path, line) = try await desk.editTarget(id, card: body?["card"] ?? "")
                Self.openEditor(settings, path, line)
                return .object([("message", .string("Opened in the editor on the computer running quire serve; the page follows the note when it is saved."))])
            }
        }
    }

    /// Search, a note opened in the editor, and the curation passes.
    private func addSearchAndCuration(to router: Router<BasicRequestContext>) {
        router.get("/api/search") { [desk] request, _ in
            let text = request.uri.queryParameters["q"].map(String.init) ?? ""
            return await Self.answer { () throws(ServerError) in try await desk.search(text) }
        }
        router.get("/api/note") { [desk] request, _ in
            let path = request.uri.queryParameters["path"].map(String.init) ?? ""
            let line = request.uri.queryParameters["line"].flatMap { Int(String($0)) } ?? 1
            return await Self.answer { () throws(ServerError) in try await desk.note(path, line: line) }
        }
        router.post("/api/open") { [desk, settings] request, _ in
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in
                let (path, line) = try await desk.noteTarget(body?["path"] ?? "", line: Int(body?["line"] ?? "") ?? 1)
                Self.openEditor(settings, path, line)
                return .object([("message", .string("Opened in the editor on the computer running quire serve."))])
            }
        }
        router.post("/api/curations") { [desk] request, _ in
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in try await desk.startCuration(body?["review"] ?? "") }
        }
        router.get("/api/curations/:id") { [desk] _, context in
            let id = context.parameters.get("id") ?? ""
            return await Self.answer { () throws(ServerError) in try await desk.curationState(id) }
        }
        router.post("/api/curations/:id/key") { [desk] request, context in
            let id = context.parameters.get("id") ?? ""
            let body = await Self.body(request)
            return await Self.answer { () throws(ServerError) in try await desk.curate(id, body?["key"] ?? "") }
        }
    }

    /// KaTeX's and highlight.js's files, from Debian's packages: only the few this page uses,
    /// by fixed names (the folders hold links into other system folders, which are followed).
    private func systemAsset(_ path: String) -> Response {
        let root = settings.systemAssets
        var file: String?
        var type = "text/css; charset=utf-8"
        switch path {
        case "/katex/katex.min.js":
            file = root + "/javascript/katex/katex.min.js"
            type = "text/javascript; charset=utf-8"
        case "/katex/katex.min.css": file = root + "/javascript/katex/katex.min.css"
        case "/hljs/highlight.min.js":
            file = root + "/javascript/highlight.js/highlight.min.js"
            type = "text/javascript; charset=utf-8"
        default:
            let prefix = "/katex/fonts/"
            let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : ""
            let fonts = ["woff2": "font/woff2", "woff": "font/woff", "ttf": "font/ttf"]
            if name.hasPrefix("KaTeX_"), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
               let ext = name.split(separator: ".").last, let t = fonts[String(ext)], name.filter({ $0 == "." }).count == 1 {
                file = root + "/fonts/truetype/katex/" + name
                type = t
            }
        }
        guard let file, let data = FileManager.default.contents(atPath: file) else { return Self.failure(.notFound, "not found") }
        var headers: HTTPFields = [.contentType: type]
        headers[.cacheControl] = "max-age=86400"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The editor runs on this machine, in the terminal of `quire serve`, apart from the request.
    static func openEditor(_ settings: StudyServer.Settings, _ path: String, _ line: Int) {
        let open = settings.openEditor
        Thread.detachNewThread { if let problem = open(path, line) { FileHandle.standardError.write(Data((problem + "\n").utf8)) } }
    }

    // MARK: - Answers

    static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized())))
    }

    static func failure(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(.object([("error", .string(message))]), status: status)
    }

    /// What `work` gives as JSON, or its error with the status that fits it.
    static func answer(_ work: () async throws(ServerError) -> JSONValue) async -> Response {
        do { return json(try await work()) } catch {
            let status: HTTPResponse.Status = switch error {
            case .badRequest: .badRequest
            case .noSession: .notFound
            case .staleCard: .conflict
            case .review: .conflict
            case .app, .watch, .start: .internalServerError
            }
            return failure(status, error.description)
        }
    }

    /// A JSON object body's string fields (nil for no body or one that is not such an object).
    static func body(_ request: Request) async -> [String: String]? {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumBody),
              let value = try? JSONValue(parsing: Array(buffer.readableBytesView)),
              case .object(let fields) = value else { return nil }
        var out: [String: String] = [:]
        for (key, field) in fields { if case .string(let s) = field { out[key] = s } }
        return out
    }
}
