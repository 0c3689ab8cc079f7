import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import QuireModel
import QuireSupport
import QuireSystem
import QuireWatch
import QuireVault

/// The web review page's server (`quire serve`): HTTP on Hummingbird, the study logic in
/// ``StudyDesk`` (over QuireApp, as the terminal's), the page itself static files of this module.
///
/// Routes, every one behind ``RequestGate``:
/// - `GET /` the page; `/app.js`, `/app.css` its script and style; `/katex/…`, `/hljs/…`
///   KaTeX and highlight.js from Debian's packages (`libjs-katex`, `libjs-highlight.js`);
/// - `GET /api/overview` today's plan and the decks; `POST /api/sessions` starts a session
///   (`{"deck": …}` optional); `GET /api/sessions/ID` its card; `POST /api/sessions/ID/grade`
///   (`{"card", "rating"}`), `/undo`, `/act` (`{"card", "action"}`: skip, bury, suspend,
///   promote, demote), `/edit` (`{"card"}`: the note in `$EDITOR` on this machine), `/check`
///   (a typed answer), `/explain`, `/retry`; `GET /api/search?q=`, `POST /api/open`; the
///   curation reviews under `/api/curations` (docs/SERVE.md lists them all);
/// - `GET /api/events` server-sent events: notes changed on disk;
/// - `GET /file/PATH` an image, sound, video or PDF of the vault (``VaultFiles``);
/// - `GET /report` the statistics report.
public struct StudyServer: Sendable {
    /// What the server serves and how.
    public struct Settings: Sendable {
        public var vault: Vault
        /// The address to listen on: 127.0.0.1 unless the user asks for another.
        public var host: String
        /// The port; 0 for any free one.
        public var port: Int
        public var cached: Bool
        /// A fixed clock (tests).
        public var pinnedNow: Timestamp?
        /// The per-run token (``RequestGate``); a new random one by default.
        public var token: String
        /// Opens a note in the user's editor at a line; returns an error to show, or nil.
        public var openEditor: @Sendable (_ path: String, _ line: Int) -> String?
        /// Whether every card's answer is typed, not only those of notes with `type: true`.
        public var typeEveryAnswer = false
        /// Where Debian installs KaTeX and highlight.js.
        public var systemAssets: String = "/usr/share"
        /// How long a request may take to arrive whole (``RequestDeadline``), in seconds.
        public var requestSeconds: Int64 = 30
        /// Connections one address may hold at once (``ConnectionLimiter``).
        public var connectionsPerClient = 24

        public init(vault: Vault, host: String = "127.0.0.1", port: Int = 8427, cached: Bool = true, pinnedNow: Timestamp? = nil,
                    token: String = StudyServer.makeToken(),
                    openEditor: @escaping @Sendable (String, Int) -> String?) {
            self.vault = vault
            self.host = host
            self.port = port
            self.cached = cached
            self.pinnedNow = pinnedNow
            self.token = token
            self.openEditor = openEditor
        }
    }

    public let settings: Settings

    /// A new token for a run: 128 random bits from the system's generator, in hex.
    public static func makeToken() -> String { RequestGate.makeToken() }

    public init(_ settings: Settings) { self.settings = settings }

    /// Whether an address is this machine's own (the server then accepts only names of it).
    static func isLoopback(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.") }

    /// Serves until the process ends. `ready` hears the port once the server listens (before
    /// any request is answered), with the address to open.
    public func run(ready: @escaping @Sendable (_ port: Int, _ url: String) -> Void) async throws {
        // The watcher starts before the index is built, so no change made meanwhile is missed.
        let watcher = InotifyWatcher(root: settings.vault.root, sys: settings.vault.io.sys)
        do { try watcher.start() } catch { throw ServerError.watch(error.description) }
        let linkKey = RequestGate.makeToken()
        let desk = try StudyDesk(vault: settings.vault, cached: settings.cached, pinnedNow: settings.pinnedNow, linkKey: linkKey)
        await desk.typeEveryAnswer(settings.typeEveryAnswer)
        let feed = LiveFeed()
        let watching = WatchLoop(watcher: watcher, desk: desk, feed: feed)
        watching.start()
        defer { watching.stop(); feed.finish() }

        let gate = RequestGate(token: settings.token, linkKey: linkKey, port: settings.port, listensBeyondLoopback: !Self.isLoopback(settings.host),
                               listenAddress: settings.host)
        let router = Router()
        router.add(middleware: GateMiddleware(gate: gate))
        Routes(desk: desk, feed: feed, settings: settings, linkKey: linkKey).add(to: router)
        var logger = Logger(label: "quire-serve")
        logger.logLevel = .critical
        let host = settings.host
        let token = settings.token
        // Bounded clients: headers of 16 KB a field and 32 KB in all, 100 fields; a connection idle
        // for 30 s closed, and one whose request is not whole within 30 s (sent a byte at a time);
        // 64 connections at once, 24 from one address (ConnectionLimiter).
        let seconds = settings.requestSeconds
        let limiter = ConnectionLimiter(perClient: settings.connectionsPerClient)
        let http = HTTP1Channel.Configuration(additionalChannelHandlers: [ConnectionLimiter.Handler(limiter: limiter), RequestDeadline(seconds: seconds)],
                                              idleTimeout: .seconds(30), httpDecoderConfiguration: .init(
            maxHeaderFieldSize: 16 << 10, maxHeaderListSize: 32 << 10, maxHeaderFieldCount: 100))
        let app = Application(router: router, server: .http1(configuration: http),
                              configuration: .init(address: .hostname(host, port: settings.port), serverName: nil,
                                                   availableConnectionsDelegate: MaximumAvailableConnections(64)),
                              onServerRunning: { channel in
                                  // With port 0 the system chose one: the gate learns it before answering.
                                  let port = channel.localAddress?.port ?? settings.port
                                  gate.port.set(port)
                                  let shown = host.contains(":") ? "[\(host)]" : (host == "0.0.0.0" ? "127.0.0.1" : host)
                                  ready(port, "http://\(shown):\(port)/#token=\(token)")
                              }, logger: logger)
        try await app.run()
    }
}

/// The thread that waits for the watcher's batches and hands them to the desk and the pages.
final class WatchLoop: @unchecked Sendable {
    private let watcher: InotifyWatcher
    private let desk: StudyDesk
    private let feed: LiveFeed
    private let lock = NSLock()
    private var running = true

    init(watcher: InotifyWatcher, desk: StudyDesk, feed: LiveFeed) {
        self.watcher = watcher
        self.desk = desk
        self.feed = feed
    }

    func start() {
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                guard let batch = try? watcher.next(timeout: .milliseconds(250)) else { continue }
                let desk = self.desk, feed = self.feed
                Task {
                    let paths = await desk.takeIn(batch)
                    if !paths.isEmpty { feed.send(paths: paths) }
                }
            }
            watcher.stop()
        }
        thread.name = "quire-serve-watch"
        thread.start()
    }

    func stop() { lock.withLock { running = false } }
}

/// Every request through ``RequestGate``, and every response with the security headers.
struct GateMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: RequestGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority
        guard let host, gate.allowsHost(host) else { return Self.refusal(.misdirectedRequest, "This server answers only to its own address.") }
        guard gate.allowsOrigin(request.headers[.origin], host: host) else {
            return Self.refusal(.forbidden, "Requests from other sites are refused.")
        }
        let path = request.uri.path
        if path == "/", request.uri.queryParameters["token"] != nil {
            // The old form of the address: the token in the query, which the browser keeps in its
            // history. It is no longer taken.
            return Self.refusal(.forbidden, "Open the address 'quire serve' printed (…/#token=…): it carries this run's token.")
        }
        guard gate.admits(path, header: request.headers[HTTPField.Name.quireToken], key: request.uri.queryParameters["k"].map(String.init)) else {
            return Self.refusal(.forbidden, "Open the address 'quire serve' printed: it carries this run's token.")
        }
        if request.method != .get && request.method != .head {
            // The page's own header: a page of another site cannot send it without asking first.
            guard request.headers[HTTPField.Name.quirePage] == "1" else { return Self.refusal(.forbidden, "Changes come from the page only.") }
            // Fetch metadata: a browser says where a request comes from; only the page itself
            // (or the user, typing) may change anything.
            if let site = request.headers[HTTPField.Name.secFetchSite], !["same-origin", "none"].contains(site.lowercased()) {
                return Self.refusal(.forbidden, "Requests from other sites are refused.")
            }
        }
        let response = try await next(request, context)
        return Self.secured(response, path: request.uri.path)
    }

    /// The headers every response carries: no script but the page's own files, nothing loaded
    /// from elsewhere, never framed, never cached, never sniffed.
    static func secured(_ response: Response, path: String) -> Response {
        var response = response
        let policy: String
        if path.hasPrefix(VaultFiles.prefix) {
            // A vault's SVG or PDF opened on its own runs nothing.
            policy = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox"
        } else if path == "/report" {
            policy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        } else {
            policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; font-src 'self'; "
                + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        }
        response.headers[.contentSecurityPolicy] = policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var response = Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
        response = secured(response, path: "")
        return response
    }
}

extension HTTPField.Name {
    /// The header the page sends with every change (`X-Quire-Page: 1`).
    static var quirePage: Self { .init("X-Quire-Page") ?? .xContentTypeOptions }
    /// The header the page sends the run's token in (`X-Quire-Token`).
    static var quireToken: Self { .init("X-Quire-Token") ?? .xContentTypeOptions }
    static var referrerPolicy: Self { .init("Referrer-Policy") ?? .xContentTypeOptions }
    /// `Sec-Fetch-Site`: the browser's word on where a request comes from.
    static var secFetchSite: Self { .init("Sec-Fetch-Site") ?? .origin }
}
