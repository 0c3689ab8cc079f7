import Foundation
import Glibc
import Testing

/// `quire serve` bounds its clients (a separate process, as users run it): a client that sends its
/// request a byte at a time is cut off at the request deadline (`--request-timeout 1` here),
/// whether it trickles its head or its body, and a whole request is answered on a connection kept
/// open for the next; a client past its 24 connections has the next closed at once while another
/// address is served (thousands of connections that never finish their request made the page
/// unreachable for everyone before).
@Suite(.serialized, .tags(.slow)) struct ServeLimitsTests {
    /// A raw TCP connection to the server on this machine.
    final class Connection {
        let fd: Int32

        /// Connects from `source` (another loopback address) when given.
        init(port: Int, source: String? = nil) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                local.sin_addr.s_addr = inet_addr(source)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard bound == 0 else { throw ServeTests.Failure("bind: \(errno)") }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw ServeTests.Failure("connect: \(errno)") }
        }

        deinit { close(fd) }

        /// Sends `text`; false once the server has closed the connection.
        func send(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }

        /// What the server sent within `seconds`: nil when it closed the connection with nothing more.
        func receive(within seconds: Double) -> String? {
            var got = [UInt8]()
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 20) > 0 else {
                    if !got.isEmpty { break }
                    continue
                }
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { return got.isEmpty ? nil : String(decoding: got, as: UTF8.self) }
                got += buffer[0..<n]
            }
            return String(decoding: got, as: UTF8.self)
        }

        /// Whether the server closed the connection while `bytes` were sent one every 0.2 s.
        func trickle(_ bytes: String) -> (closed: Bool, after: Double) {
            let start = Date()
            for byte in bytes {
                if !send(String(byte)) { return (true, Date().timeIntervalSince(start)) }
                if receive(within: 0.2) == nil { return (true, Date().timeIntervalSince(start)) }
            }
            return (false, Date().timeIntervalSince(start))
        }
    }

    @Test func slowClientsAreCutOffAndWholeRequestsAnswered() throws {
        let q = try ServeTests.vault()
        defer { q.cleanUp() }
        let server = try ServeTests.Server(q, ["--request-timeout", "1"])
        defer { server.stop() }
        let port = try #require(URLComponents(string: server.url)?.port)
        let host = "Host: 127.0.0.1:\(port)\r\n"

        // A head sent a byte at a time: 30 bytes take 6 s, the deadline is 1 s.
        let head = try Connection(port: port)
        let slowHead = head.trickle("GET /api/overview HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: 30))
        #expect(slowHead.closed && slowHead.after < 3, "\(slowHead)")

        // A body sent a byte at a time after a whole head: each byte would restart an idle timer.
        let body = try Connection(port: port)
        #expect(body.send("POST /api/sessions HTTP/1.1\r\n\(host)Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"))
        let slowBody = body.trickle(String(repeating: " ", count: 40))
        #expect(slowBody.closed && slowBody.after < 3, "\(slowBody)")

        // Whole requests: answered (refused without the token, but answered), and the connection
        // kept open past the deadline between them, each request getting its own second.
        let fast = try Connection(port: port)
        #expect(fast.send("GET /api/overview HTTP/1.1\r\n\(host)\r\n"))
        #expect((fast.receive(within: 10) ?? "").hasPrefix("HTTP/1.1 403"))
        Thread.sleep(forTimeInterval: 0.6)
        #expect(fast.send("GET /api/overview HTTP/1.1\r\n\(host)\r\n"))
        #expect((fast.receive(within: 10) ?? "").hasPrefix("HTTP/1.1 403"))
    }

    @Test func aClientPastItsConnectionsIsCutOffAndOthersServed() throws {
        let q = try ServeTests.vault()
        defer { q.cleanUp() }
        let server = try ServeTests.Server(q)
        defer { server.stop() }
        let port = try #require(URLComponents(string: server.url)?.port)
        let request = "GET /api/overview HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        var held = try (0..<24).map { _ in try Connection(port: port) }
        Thread.sleep(forTimeInterval: 0.3)
        let past = try Connection(port: port)
        #expect(past.receive(within: 2) == nil, "the 25th connection from one address stayed open")
        let other = try Connection(port: port, source: "127.0.0.2")
        #expect(other.send(request))
        #expect((other.receive(within: 10) ?? "").hasPrefix("HTTP/1.1 403"))
        held.removeAll()
        Thread.sleep(forTimeInterval: 0.3)
        let again = try Connection(port: port)
        #expect(again.send(request))
        #expect((again.receive(within: 10) ?? "").hasPrefix("HTTP/1.1 403"))
    }
}
