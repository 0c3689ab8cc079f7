import Testing
@testable import QuireServer

/// Who the server answers: its own hosts, its own origin, its token.
@Suite struct RequestGateTests {
    let gate = RequestGate(token: "0123456789abcdef0123456789abcdef", linkKey: "fedcba9876543210fedcba9876543210", port: 8427,
                           listensBeyondLoopback: false)

    @Test func hosts() {
        for host in ["127.0.0.1:8427", "localhost:8427", "LOCALHOST:8427", "[::1]:8427"] { #expect(gate.allowsHost(host), "\(host)") }
        for host in ["127.0.0.1", "127.0.0.1:8428", "attacker.example:8427", "127.0.0.1.nip.io:8427", "localhost.attacker.example:8427",
                     "192.168.1.20:8427", "", "[::1]", "[::1]:80", ":8427", "localhost:8427:8427"] {
            #expect(!gate.allowsHost(host), "\(host)")
        }
        #expect(!gate.allowsHost(nil))
        // Listening on the network: addresses in numbers, never names.
        let wide = RequestGate(token: gate.token, port: 8427, listensBeyondLoopback: true)
        #expect(wide.allowsHost("192.168.1.20:8427") && wide.allowsHost("[fe80::1]:8427"))
        #expect(!wide.allowsHost("phone.attacker.example:8427") && !wide.allowsHost("192.168.1.300:8427") && !wide.allowsHost("1.2.3:8427"))
        // Listening on another loopback address: that address too (the one printed).
        let other = RequestGate(token: gate.token, port: 8427, listensBeyondLoopback: false, listenAddress: "127.0.0.2")
        #expect(other.allowsHost("127.0.0.2:8427") && other.allowsHost("127.0.0.1:8427") && !other.allowsHost("127.0.0.3:8427"))
        #expect(!RequestGate(token: gate.token, port: 8427, listensBeyondLoopback: false, listenAddress: "evil.example").allowsHost("evil.example:8427"))
        #expect(RequestGate(token: gate.token, port: 8427, listensBeyondLoopback: true, listenAddress: "::1").allowsHost("[::1]:8427"))
        // Before the server knows its port, nothing.
        #expect(!RequestGate(token: gate.token, port: 0, listensBeyondLoopback: false).allowsHost("127.0.0.1:0"))
    }

    @Test func origins() {
        #expect(gate.allowsOrigin(nil, host: "127.0.0.1:8427"))
        #expect(gate.allowsOrigin("http://127.0.0.1:8427", host: "127.0.0.1:8427"))
        for origin in ["null", "http://attacker.example", "https://127.0.0.1:8427", "http://127.0.0.1:8428", "http://localhost:8427"] {
            #expect(!gate.allowsOrigin(origin, host: "127.0.0.1:8427"), "\(origin)")
        }
    }

    @Test func tokens() {
        #expect(gate.isToken("0123456789abcdef0123456789abcdef"))
        #expect(!gate.isToken("0123456789abcdef0123456789abcdee") && !gate.isToken("0123") && !gate.isToken(nil) && !gate.isToken(""))
        #expect(gate.isLinkKey("fedcba9876543210fedcba9876543210") && !gate.isLinkKey(gate.token) && !gate.isToken(gate.linkKey))
        let made = RequestGate.makeToken()
        #expect(made.count == 32 && made.allSatisfy(\.isHexDigit) && made != RequestGate.makeToken())
    }

    /// The page's own files need nothing; what the browser loads by address (files, the report,
    /// the changes) the token or the link key; the API the token, in its header, only.
    @Test func whatEachPathNeeds() {
        let token = gate.token, key = gate.linkKey
        for path in ["/", "/app.js", "/app.css", "/katex/katex.min.js", "/hljs/highlight.min.js"] {
            #expect(gate.admits(path, header: nil, key: nil), "\(path)")
        }
        for path in ["/file/Web/a.png", "/report", "/api/events"] {
            #expect(gate.admits(path, header: nil, key: key) && gate.admits(path, header: token, key: nil), "\(path)")
            #expect(!gate.admits(path, header: nil, key: nil) && !gate.admits(path, header: key, key: nil) && !gate.admits(path, header: nil, key: token + "0"), "\(path)")
        }
        for path in ["/api/overview", "/api/sessions", "/api/search", "/api/links", "/api/note", "/anything"] {
            #expect(gate.admits(path, header: token, key: nil), "\(path)")
            #expect(!gate.admits(path, header: nil, key: key) && !gate.admits(path, header: nil, key: token) && !gate.admits(path, header: key, key: nil), "\(path)")
        }
    }
}
