import Foundation
import Testing
@testable import QuireNetwork

/// Endpoints read and judged loopback or not; replies from a real server on loopback (a raw
/// socket in python3 that writes the bytes given, then closes): lengths, chunks, garbage, a reply
/// cut short, a server that never answers.
@Suite struct HTTPClientTests {
    @Test func endpoints() throws {
        let e = try HTTPClient.Endpoint("http://127.0.0.1:8080/v1/chat/completions")
        #expect(e.host == "127.0.0.1" && e.port == 8080 && e.path == "/v1/chat/completions" && e.isLoopback)
        #expect(try HTTPClient.Endpoint("http://localhost:11434").isLoopback)
        #expect(try HTTPClient.Endpoint("http://[::1]:9/x").host == "::1")
        #expect(try HTTPClient.Endpoint("http://[::1]:9/x").isLoopback)
        #expect(try HTTPClient.Endpoint("http://127.5.6.7").port == 80)
        // Loopback in other spellings (decimal, octal, hexadecimal, IPv4-mapped IPv6) is refused
        // too: only the plain forms count, so nothing a resolver reads differently gets through.
        for remote in ["http://10.0.0.1:8080", "http://127.0.0.1.evil.example:80", "http://localhost.example", "http://128.0.0.1",
                       "http://2130706433:8080", "http://0177.0.0.1", "http://0x7f.0.0.1", "http://[::ffff:127.0.0.1]:8080",
                       "http://017700000001", "http://127.1"] {
            #expect(!(try HTTPClient.Endpoint(remote).isLoopback), "\(remote)")
        }
        for bad in ["https://127.0.0.1", "ftp://x", "http://:80", "http://127.0.0.1:0", "http://127.0.0.1:99999", "http://[::1"] {
            #expect(throws: HTTPClient.Failure.self) { try HTTPClient.Endpoint(bad) }
        }
    }

    /// Serves one connection on loopback with `reply`'s bytes after `delay` seconds (a byte every
    /// `drip` seconds when given); its port.
    static func server(_ reply: String, delay: Double = 0, drip: Double = 0) throws -> (Process, UInt16) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
            print(s.getsockname()[1], flush=True)
            c, _ = s.accept(); c.settimeout(5)
            data = b""
            while b"\\r\\n\\r\\n" not in data: data += c.recv(65536)
            time.sleep(float(sys.argv[2]))
            if float(sys.argv[3]) > 0:
                for b in sys.argv[1].encode(): c.sendall(bytes([b])); time.sleep(float(sys.argv[3]))
            else: c.sendall(sys.argv[1].encode())
            c.close()
            """, reply, String(delay), String(drip)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = UInt16(line) else {
            process.terminate()
            throw HTTPClient.Failure(description: "the test server did not start")
        }
        return (process, port)
    }

    static func post(_ reply: String, delay: Double = 0, drip: Double = 0, timeout: Int = 10) throws -> (status: Int, body: [UInt8]) {
        let (process, port) = try server(reply, delay: delay, drip: drip)
        defer { process.terminate() }
        return try HTTPClient.post(try HTTPClient.Endpoint("http://127.0.0.1:\(port)/v1"), body: Array("{}".utf8), timeoutSeconds: timeout)
    }

    @Test func replies() throws {
        let plain = try Self.post("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi")
        #expect(plain.status == 200 && plain.body == Array("hi".utf8))
        let chunked = try Self.post("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n")
        #expect(chunked.body == Array("Wikipedia".utf8))
        #expect(try Self.post("HTTP/1.0 503 Busy\r\n\r\n").status == 503)
        #expect(throws: HTTPClient.Failure.self) { try Self.post("garbage") }
        #expect(throws: HTTPClient.Failure.self) { try Self.post("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nshort") }
        #expect(throws: HTTPClient.Failure.self) { try Self.post("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort") }
        // Numbers from the network past any size: an error, never an overflow (the adversarial
        // trial's chunk of 7fffffffffffffff bytes stopped the old client with signal 4).
        for hostile in ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc",
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nabc",
                        "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nabc",
                        "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nabc",
                        "HTTP/1.1 99999999999999999999 OK\r\n\r\n"] {
            #expect(throws: HTTPClient.Failure.self, "\(hostile)") { try Self.post(hostile) }
        }
    }

    /// The timeout bounds the whole exchange, not each read: a reply dripped a byte at a time
    /// (each byte in time for a per-read timeout) ends at the deadline (it took 170 s for a
    /// 5-second timeout before).
    @Test func aDrippedReplyEndsAtTheDeadline() throws {
        let started = Date()
        let body = String(repeating: "x", count: 40)
        do {
            _ = try Self.post("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n" + body, drip: 0.2, timeout: 2)
            Issue.record("a reply dripped over 16 s came within 2 s")
        } catch {
            #expect("\(error)".contains("within 2 s"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let started = Date()
        do {
            _ = try Self.post("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi", delay: 5, timeout: 1)
            Issue.record("a reply came after the deadline")
        } catch {
            #expect("\(error)".contains("within 1 s"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 4)
        // Nothing listens: said as such.
        do {
            _ = try HTTPClient.post(try HTTPClient.Endpoint("http://127.0.0.1:9/v1"), body: [], timeoutSeconds: 2)
            Issue.record("a closed port answered")
        } catch {
            #expect("\(error)".contains("is the server running?"), "\(error)")
        }
    }
}
