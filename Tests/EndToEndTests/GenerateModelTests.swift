import Foundation
import Testing

/// `quire generate --llm` against an HTTP server this test runs on loopback: a reply with good and
/// invented cards (only the good kept, the rules filling in), a malformed reply, a slow one and an
/// HTTP error (each the rules' cards alone, with a warning), and a remote endpoint refused.
@Suite(.serialized) struct GenerateModelTests {
    /// Starts a one-shot chat server replying per `mode`; returns it and its port.
    static func server(_ mode: String, record: URL) throws -> (Process, Int) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", """
            import http.server, json, sys, time
            mode, record = sys.argv[1], sys.argv[2]
            good = {"cards": [
                {"format": "qa", "front": "What does an enzyme speed up?", "back": "A chemical reaction", "sentence": 1},
                {"format": "definition", "front": "Enzyme", "back": "a protein made in the liver by ribosomes", "sentence": 1}]}
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers["Content-Length"]))
                    open(record, "wb").write(body)
                    if mode == "slow":
                        time.sleep(5)
                    if mode == "error":
                        self.send_response(500); self.send_header("Content-Length", "4"); self.end_headers(); self.wfile.write(b"oops"); return
                    content = json.dumps(good) if mode == "good" else "Sure! Here are some cards: Q: what? A: that."
                    out = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(("127.0.0.1", 0), H)
            print(s.server_address[1], flush=True)
            s.timeout = 30
            s.handle_request()
            """, mode, record.path]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else { server.terminate(); throw TestFailureError(text: "no port: \(line)") }
        return (server, port)
    }
    struct TestFailureError: Error { var text: String }

    @Test func modelCardsCheckedAndRulesFillIn() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        let record = q.vault.deletingLastPathComponent().appendingPathComponent("request.json")
        let rules = try q.run(["generate", "Biology/Enzymes.md"]).stdout
        let (server, port) = try Self.server("good", record: record)
        defer { server.terminate() }
        let r = try q.run(["generate", "Biology/Enzymes.md", "--llm", "http://127.0.0.1:\(port)"])
        #expect(r.status == 0 && r.stdout.contains("[qa] What does an enzyme speed up? :: A chemical reaction"), "\(r)")
        #expect(!r.stdout.contains("liver") && r.stdout.contains("[definition] Cofactor :: a non-protein helper molecule"), "\(r)")
        #expect(r.stderr.contains("1 of the model's cards left out (card 2: its answer says what the note does not (liver, ribosomes))"), "\(r)")
        let sent = String(decoding: try Data(contentsOf: record), as: UTF8.self)
        #expect(sent.contains("[1] An enzyme is a protein that speeds up a chemical reaction without being used up.") && sent.contains("\"temperature\":0"), "\(sent)")
        #expect(rules.contains("Cofactor"))
    }

    @Test func failuresFallBackToTheRules() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        let record = q.vault.deletingLastPathComponent().appendingPathComponent("request.json")
        let rules = try q.run(["generate", "Biology/Enzymes.md"]).stdout
        for (mode, warning) in [("junk", "no card of the model's reply holds (the reply is not the JSON asked for)"),
                                ("error", "the language model failed"), ("slow", "the language model failed")] {
            let (server, port) = try Self.server(mode, record: record)
            defer { server.terminate() }
            let r = try q.run(["generate", "Biology/Enzymes.md", "--llm", "http://127.0.0.1:\(port)", "--llm-timeout", "2"])
            #expect(r.status == 0 && r.stdout == rules && r.stderr.contains(warning), "\(mode): \(r)")
        }
        let remote = try q.run(["generate", "Biology/Enzymes.md", "--llm", "http://192.0.2.10:8080"])
        #expect(remote.status != 0 && remote.stderr.contains("is not on this machine"), "\(remote)")
    }
}
