import Foundation

/// Who may talk to the server: the checks every request passes before it reaches a route.
///
/// - **Token**: a random token made for each run; the address `quire serve` prints carries it
///   in its fragment (`/#token=…`), which a browser never sends anywhere. The page keeps it in
///   its own origin's storage and sends it in a header (`X-Quire-Token`) with every API request.
///   No cookie: browsers share cookies between the ports of one host, so any other program on
///   another port of this machine would receive one.
/// - **Link key**: a second random key for what the browser loads by address, where no header
///   can be added — a note's images and sounds (`/file/…?k=…`), the statistics report and the
///   stream of changes. It opens those and nothing of the API.
/// - **Host**: only `localhost`, `127.0.0.1`, `[::1]` — or, listening beyond this machine, an
///   address in numbers — with the server's port. A name a DNS rebinding attack controls, that
///   resolves to 127.0.0.1, is refused.
/// - **Origin**: a request a browser marks with another origin (a page of another site posting
///   to this one) is refused; changes also need the page's own header, which no other site's
///   page may send without asking (and the server never allows it).
struct RequestGate: Sendable {
    let token: String
    /// The run's link key (random, like the token).
    let linkKey: String
    /// The port listened on, once known (0 before: every host is refused).
    let port: Port
    /// Whether the server listens beyond this machine (`--listen`): addresses in numbers are then
    /// accepted as hosts.
    let listensBeyondLoopback: Bool
    /// The address listened on, when one in numbers (`--listen 127.0.0.2`): a host too.
    let listenAddress: String?

    init(token: String, linkKey: String = RequestGate.makeToken(), port: Int, listensBeyondLoopback: Bool, listenAddress: String? = nil) {
        self.token = token
        self.linkKey = linkKey
        let bracketed = listenAddress.map { $0.contains(":") && !$0.hasPrefix("[") ? "[\($0)]" : $0 }
        self.listenAddress = bracketed.flatMap { Self.isNumericAddress($0) ? $0.lowercased() : nil }
        self.port = Port(port)
        self.listensBeyondLoopback = listensBeyondLoopback
    }

    /// The port, set once the server listens.
    final class Port: @unchecked Sendable {
        private var value: Int
        private let lock = NSLock()
        init(_ value: Int) { self.value = value }
        var current: Int { lock.withLock { value } }
        func set(_ port: Int) { lock.withLock { value = port } }
    }

    /// Whether the `Host` header names this server.
    func allowsHost(_ host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        let (name, hostPort) = Self.split(host)
        let port = port.current
        guard port != 0, hostPort == port || (hostPort == nil && port == 80) else { return false }
        switch name.lowercased() {
        case "localhost", "127.0.0.1", "[::1]": return true
        case listenAddress: return true
        default: return listensBeyondLoopback && Self.isNumericAddress(name)
        }
    }

    /// Whether an `Origin` header (nil when the browser sent none) is this server's own.
    func allowsOrigin(_ origin: String?, host: String) -> Bool {
        guard let origin else { return true }
        return origin.lowercased() == "http://" + host.lowercased()
    }

    /// Whether `given` is the token (compared in time independent of where they differ).
    func isToken(_ given: String?) -> Bool { Self.same(given, token) }

    /// Whether `given` is the link key.
    func isLinkKey(_ given: String?) -> Bool { Self.same(given, linkKey) }

    /// What a request to `path` needs besides its host and origin.
    enum Need: Equatable {
        /// Nothing: the page's own files, the same for everyone (no vault text).
        case nothing
        /// The token or the link key: what the browser loads by address.
        case linkKey
        /// The token, in its header: the API.
        case token
    }

    /// What a request to `path` needs.
    static func need(_ path: String) -> Need {
        if ["/", "/app.js", "/app.css"].contains(path) || path.hasPrefix("/katex/") || path.hasPrefix("/hljs/") { return .nothing }
        if path.hasPrefix(VaultFiles.prefix) || path == "/report" || path == "/api/events" { return .linkKey }
        return .token
    }

    /// Whether a request to `path` with the `X-Quire-Token` header `header` and the query's `k`
    /// may go on.
    func admits(_ path: String, header: String?, key: String?) -> Bool {
        switch Self.need(path) {
        case .nothing: true
        case .linkKey: isToken(header) || isLinkKey(key)
        case .token: isToken(header)
        }
    }

    /// `given` equals `secret`, compared in time independent of where they differ.
    static func same(_ given: String?, _ secret: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(secret.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// `name:port` split (`[::1]:8427` keeps its brackets); nil port when none or not a number.
    static func split(_ host: String) -> (name: String, port: Int?) {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return (host, nil) }
            let name = String(host[...close])
            let rest = host[host.index(after: close)...]
            return (name, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        guard let colon = host.lastIndex(of: ":") else { return (host, nil) }
        return (String(host[..<colon]), Int(host[host.index(after: colon)...]))
    }

    /// An IPv4 address in dotted numbers, or a bracketed IPv6 address.
    static func isNumericAddress(_ name: String) -> Bool {
        if name.hasPrefix("["), name.hasSuffix("]") {
            return name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isNumber) && (Int(p) ?? 256) <= 255 }
    }

    /// A new token: 128 random bits from the system's generator, in hex.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let v = generator.next()
            let hex = String(v, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
