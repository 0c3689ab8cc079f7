import Foundation

/// An OpenAI-compatible chat server on loopback for one request, run by python3's http.server:
/// it records the request body, waits `delay` seconds, then answers `content` as the assistant's
/// message (or HTTP `status` with no completion when it is not 200).
struct ChatServer {
    let process: Process
    let port: Int

    init(content: String, record: URL, delay: Int = 0, status: Int = 200) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import http.server, json, sys, time
            content, record, delay, status = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers["Content-Length"]))
                    open(record, "wb").write(body)
                    time.sleep(delay)
                    out = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode() if status == 200 else b"oops"
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(("127.0.0.1", 0), H)
            s.timeout = 30
            print(s.server_address[1], flush=True)
            s.handle_request()
            """, content, record.path, String(delay), String(status)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    /// Its address.
    var url: String { "http://127.0.0.1:\(port)" }

    func stop() { process.terminate() }
}
