import Foundation
import Glibc
import Synchronization
import Testing
import QuireSystem
@testable import QuireServer
@testable import QuireTestSupport
import QuireVault

/// A client that sends its request a byte at a time is cut off at the request deadline (one
/// second here), whether it trickles its head or its body; a whole request is answered, and the
/// connection kept open for the next.
@Suite(.serialized) struct RequestDeadlineTests {
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
                guard bound == 0 else { throw TestFailure("bind: \(errno)") }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TestFailure("connect: \(errno)") }
        }

        deinit { close(fd) }

        /// Sends `text`; false once the server has closed the connection.
        func send(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }

        /// What the server sent within `seconds`: nil when it closed the connection with nothing
        /// more. Waits without holding a thread (the server's handlers run on the same pool).
        func receive(within seconds: Double) async -> String? {
            var got = [UInt8]()
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 0) > 0 else {
                    if !got.isEmpty { break }
                    try? await Task.sleep(for: .milliseconds(20))
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
        func trickle(_ bytes: String) async -> (closed: Bool, after: Double) {
            let start = Date()
            for byte in bytes {
                if !send(String(byte)) { return (true, Date().timeIntervalSince(start)) }
                if await receive(within: 0.2) == nil { return (true, Date().timeIntervalSince(start)) }
            }
            return (false, Date().timeIntervalSince(start))
        }
    }

    /// A server with a one-second deadline and four connections an address on a small vault; its port.
    static func serve(_ dir: TempDir) async throws -> (Task<Void, any Error>, Int) {
        let vault = try StudyDeskTests.vault(dir)
        var settings = StudyServer.Settings(vault: vault, port: 0, cached: false, openEditor: { _, _ in nil })
        settings.requestSeconds = 1
        settings.connectionsPerClient = 4
        let port = Mutex<Int?>(nil)
        let task = Task { try await StudyServer(settings).run { p, _ in port.withLock { $0 = p } } }
        for _ in 0..<200 {
            if let p = port.withLock({ $0 }) { return (task, p) }
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        throw TestFailure("the server did not start")
    }

    @Test func slowClientsAreCutOffAndWholeRequestsAnswered() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let (server, port) = try await Self.serve(dir)
        defer { server.cancel() }
        let host = "Host: 127.0.0.1:\(port)\r\n"

        // A head sent a byte at a time: 30 bytes take 6 s, the deadline is 1 s.
        let head = try Connection(port: port)
        let slowHead = await head.trickle("GET /api/overview HTTP/1.1\r\nX-Slow: " + String(repeating: "a", count: 30))
        #expect(slowHead.closed && slowHead.after < 3, "\(slowHead)")

        // A body sent a byte at a time after a whole head: each byte would restart an idle timer.
        let body = try Connection(port: port)
        #expect(body.send("POST /api/sessions HTTP/1.1\r\n\(host)Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"))
        let slowBody = await body.trickle(String(repeating: " ", count: 40))
        #expect(slowBody.closed && slowBody.after < 3, "\(slowBody)")

        // Whole requests: answered (refused without the token, but answered), and the connection
        // kept open past the deadline between them, each request getting its own second.
        let fast = try Connection(port: port)
        #expect(fast.send("GET /api/overview HTTP/1.1\r\n\(host)\r\n"))
        let first = await fast.receive(within: 20) ?? ""
        #expect(first.hasPrefix("HTTP/1.1 403"), "\(first.prefix(200))")
        try await Task.sleep(for: .milliseconds(600))
        #expect(fast.send("GET /api/overview HTTP/1.1\r\n\(host)\r\n"))
        let second = await fast.receive(within: 20) ?? ""
        #expect(second.hasPrefix("HTTP/1.1 403"), "\(second.prefix(200))")
    }
}
