import Testing
@testable import QuireSystem

/// Endpoints read and judged loopback or not; replies parsed, chunked ones joined.
@Suite struct HTTPClientTests {
    @Test func endpoints() throws {
        let e = try HTTPClient.Endpoint("http://127.0.0.1:8080/v1/chat/completions")
        #expect(e.host == "127.0.0.1" && e.port == 8080 && e.path == "/v1/chat/completions" && e.isLoopback)
        #expect(try HTTPClient.Endpoint("http://localhost:11434").isLoopback)
        #expect(try HTTPClient.Endpoint("http://[::1]:9/x").host == "::1")
        #expect(try HTTPClient.Endpoint("http://[::1]:9/x").isLoopback)
        #expect(try HTTPClient.Endpoint("http://127.5.6.7").port == 80)
        for remote in ["http://10.0.0.1:8080", "http://127.0.0.1.evil.example:80", "http://localhost.example", "http://128.0.0.1"] {
            #expect(!(try HTTPClient.Endpoint(remote).isLoopback), "\(remote)")
        }
        for bad in ["https://127.0.0.1", "ftp://x", "http://:80", "http://127.0.0.1:0", "http://127.0.0.1:99999", "http://[::1"] {
            #expect(throws: HTTPClient.Failure.self) { try HTTPClient.Endpoint(bad) }
        }
    }

    @Test func replies() throws {
        let plain = try HTTPClient.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8))
        #expect(plain.status == 200 && plain.body == Array("hi".utf8))
        let chunked = try HTTPClient.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n".utf8))
        #expect(chunked.body == Array("Wikipedia".utf8))
        #expect(try HTTPClient.parse(Array("HTTP/1.0 503 Busy\r\n\r\n".utf8)).status == 503)
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.parse(Array("garbage".utf8)) }
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nshort".utf8)) }
    }
}
