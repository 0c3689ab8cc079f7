import Testing
@testable import QuireServer

/// Who the server answers: its own hosts, its own origin, its token.
@Suite struct RequestGateTests {
    let gate = RequestGate(token: "0123456789abcdef0123456789abcdef", port: 8427, listensBeyondLoopback: false)

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
        #expect(gate.token(fromCookies: "a=b; quire_8427=xyz; c=d") == "xyz")
        #expect(gate.token(fromCookies: "quire_8428=xyz") == nil)
        #expect(gate.cookie.contains("HttpOnly") && gate.cookie.contains("SameSite=Strict"))
        let made = RequestGate.makeToken()
        #expect(made.count == 32 && made.allSatisfy(\.isHexDigit) && made != RequestGate.makeToken())
    }
}
