#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client for a language-model server on this machine (llama.cpp's and Ollama's
/// OpenAI-compatible endpoints): plain `http://` only, one request per connection, a bounded reply.
public enum HTTPClient {
    /// Why a request failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// An endpoint's parts.
    public struct Endpoint: Sendable, Equatable {
        public var host: String
        public var port: UInt16
        public var path: String

        /// Reads `http://HOST[:PORT][/PATH]` (an IPv6 host in brackets).
        public init(_ url: String) throws(Failure) {
            guard url.hasPrefix("http://") else {
                throw Failure(description: "\(url): only http:// endpoints are supported (a local server needs no TLS)")
            }
            let rest = url.dropFirst(7)
            let authority = rest.prefix { $0 != "/" }
            path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
            var hostPart = Substring(authority), portPart: Substring?
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else { throw Failure(description: "\(url): unclosed [ in the host") }
                hostPart = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if after.hasPrefix(":") { portPart = after.dropFirst() }
            } else if let colon = authority.lastIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            }
            guard !hostPart.isEmpty else { throw Failure(description: "\(url): no host") }
            host = String(hostPart)
            if let portPart {
                guard let p = UInt16(portPart), p > 0 else { throw Failure(description: "\(url): bad port") }
                port = p
            } else {
                port = 80
            }
        }

        /// Whether the host is this machine: `localhost`, 127.0.0.0/8 or ::1.
        public var isLoopback: Bool {
            if host == "localhost" || host == "::1" { return true }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
        }
    }

    /// The largest reply read.
    static let maximumReply = 16 << 20

    /// POSTs `body` (JSON) to `endpoint`; returns the status and the reply's body.
    public static func post(_ endpoint: Endpoint, body: [UInt8], timeoutSeconds: Int = 300) throws(Failure) -> (status: Int, body: [UInt8]) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let host = endpoint.host == "localhost" ? "127.0.0.1" : endpoint.host
        guard getaddrinfo(host, String(endpoint.port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve \(endpoint.host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), first.pointee.ai_protocol)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            throw Failure(description: "cannot connect to \(endpoint.host):\(endpoint.port) (errno \(errno)): is the server running?")
        }
        let hostHeader = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        var request = Array(("POST \(endpoint.path) HTTP/1.1\r\nHost: \(hostHeader):\(endpoint.port)\r\nContent-Type: application/json\r\n"
                             + "Accept: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
        request += body
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return send(fd, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "sending to \(endpoint.host): errno \(errno)") }
            sent += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Failure(description: "no answer from \(endpoint.host) within \(timeoutSeconds) s") }
            if n == 0 { break }
            reply += buffer[0..<n]
            guard reply.count <= maximumReply else { throw Failure(description: "the reply is larger than \(maximumReply >> 20) MB") }
        }
        return try parse(reply)
    }

    /// A reply's status and body (a chunked body joined).
    static func parse(_ reply: [UInt8]) throws(Failure) -> (status: Int, body: [UInt8]) {
        guard let end = (0..<max(0, reply.count - 3)).first(where: { reply[$0] == 13 && reply[$0 + 1] == 10 && reply[$0 + 2] == 13 && reply[$0 + 3] == 10 }) else {
            throw Failure(description: "not an HTTP reply")
        }
        let head = String(decoding: reply[0..<end], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure(description: "not an HTTP reply")
        }
        var body = Array(reply[(end + 4)...])
        let chunked = lines.dropFirst().contains { $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked") }
        if chunked {
            var out: [UInt8] = []
            var i = 0
            while i < body.count {
                guard let lineEnd = (i..<max(i, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }) else { break }
                let sizeText = String(decoding: body[i..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(), radix: 16), size >= 0 else { throw Failure(description: "bad chunked reply") }
                if size == 0 { break }
                let start = lineEnd + 2
                guard start + size <= body.count else { throw Failure(description: "truncated chunked reply") }
                out += body[start..<(start + size)]
                i = start + size + 2
            }
            body = out
        }
        return (status, body)
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
