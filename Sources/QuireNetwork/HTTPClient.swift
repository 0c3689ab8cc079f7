import NIOCore
import NIOHTTP1
import NIOPosix

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

    /// POSTs `body` (JSON) to `endpoint` over SwiftNIO (its HTTP/1.1 codec: lengths and chunked
    /// replies read by it); returns the status and the reply's body. The whole exchange — connect,
    /// send, the reply to its last byte — must end within `timeoutSeconds`, and a reply larger than
    /// 16 MB is refused. Blocks the calling thread, which must not be one of NIO's event loops.
    public static func post(_ endpoint: Endpoint, body: [UInt8], timeoutSeconds: Int = 300) throws(Failure) -> (status: Int, body: [UInt8]) {
        try exchange(endpoint, method: .POST, body: body, timeoutSeconds: timeoutSeconds)
    }

    /// GETs `endpoint` (a server's readiness: `/v1/models`), with ``post(_:body:timeoutSeconds:)``'s
    /// bounds.
    public static func get(_ endpoint: Endpoint, timeoutSeconds: Int = 30) throws(Failure) -> (status: Int, body: [UInt8]) {
        try exchange(endpoint, method: .GET, body: nil, timeoutSeconds: timeoutSeconds)
    }

    /// One request and its whole reply.
    static func exchange(_ endpoint: Endpoint, method: HTTPMethod, body: [UInt8]?, timeoutSeconds: Int) throws(Failure) -> (status: Int, body: [UInt8]) {
        let group = MultiThreadedEventLoopGroup.singleton
        let reply = group.next().makePromise(of: Reply.self)
        let host = endpoint.host == "localhost" ? "127.0.0.1" : endpoint.host
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(Int64(min(timeoutSeconds, 30))))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ReplyCollector(reply: reply, limit: maximumReply))
                }
            }
        let channel: Channel
        do { channel = try bootstrap.connect(host: host, port: Int(endpoint.port)).wait() } catch {
            reply.fail(error)
            throw Failure(description: "cannot connect to \(endpoint.host):\(endpoint.port) (\(error)): is the server running?")
        }
        let deadline = channel.eventLoop.scheduleTask(in: .seconds(Int64(timeoutSeconds))) {
            reply.fail(Failure(description: "no answer from \(endpoint.host) within \(timeoutSeconds) s"))
            channel.close(promise: nil)
        }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: endpoint.path)
        head.headers.add(name: "Host", value: (endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host) + ":\(endpoint.port)")
        head.headers.add(name: "Accept", value: "application/json")
        if let body { head.headers.add(name: "Content-Type", value: "application/json") }
        head.headers.add(name: "Content-Length", value: String(body?.count ?? 0))
        head.headers.add(name: "Connection", value: "close")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        defer {
            deadline.cancel()
            channel.close(promise: nil)
        }
        do {
            let got = try reply.futureResult.wait()
            return (got.status, got.body)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "no reply from \(endpoint.host): \(error)")
        }
    }

    /// A whole reply.
    struct Reply: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// Gathers a reply's head and body, up to `limit` bytes, and answers the promise at its end
    /// (or with a failure when the connection ends first or the body is too large).
    final class ReplyCollector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let reply: EventLoopPromise<Reply>
        private let limit: Int
        private var status: Int?
        private var body: [UInt8] = []

        init(reply: EventLoopPromise<Reply>, limit: Int) {
            self.reply = reply
            self.limit = limit
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                status = Int(head.status.code)
            case .body(var buffer):
                guard body.count + buffer.readableBytes <= limit else {
                    reply.fail(Failure(description: "the reply is larger than \(limit >> 20) MB"))
                    context.close(promise: nil)
                    return
                }
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                if let status { reply.succeed(Reply(status: status, body: body)) } else { reply.fail(Failure(description: "not an HTTP reply")) }
                context.close(promise: nil)
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            reply.fail(Failure(description: error is HTTPParserError ? "not an HTTP reply" : "\(error)"))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            reply.fail(Failure(description: "the connection closed before the reply ended"))
            context.fireChannelInactive()
        }
    }
}
