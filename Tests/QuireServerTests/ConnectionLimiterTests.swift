import Foundation
import Testing
@testable import QuireServer
@testable import QuireTestSupport

/// A client past its connections (four here) has the next closed at once, and the others are
/// served (thousands of connections that never finish their request made the page unreachable
/// for everyone before).
@Suite(.serialized) struct ConnectionLimiterTests {
    /// One address holding its four connections (that never send a request): a fifth from it is
    /// closed at once, another address is answered, and once the four close the first is again.
    @Test func aClientPastItsConnectionsIsCutOffAndOthersServed() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let (server, port) = try await RequestDeadlineTests.serve(dir)
        defer { server.cancel() }
        var held = try (0..<4).map { _ in try RequestDeadlineTests.Connection(port: port) }
        try await Task.sleep(for: .milliseconds(200))
        let fifth = try RequestDeadlineTests.Connection(port: port)
        #expect(await fifth.receive(within: 0.8) == nil, "the fifth connection from one address stayed open")
        let other = try RequestDeadlineTests.Connection(port: port, source: "127.0.0.2")
        #expect(other.send("GET /api/overview HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        #expect((await other.receive(within: 20) ?? "").hasPrefix("HTTP/1.1 403"))
        held.removeAll()
        try await Task.sleep(for: .milliseconds(300))
        let again = try RequestDeadlineTests.Connection(port: port)
        #expect(again.send("GET /api/overview HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        #expect((await again.receive(within: 20) ?? "").hasPrefix("HTTP/1.1 403"))
    }
}
