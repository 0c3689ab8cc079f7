import Foundation
import Synchronization
import Testing
import QuireTestSupport

/// `quire serve` as its users and its attackers meet it: a real server process on a copy of the
/// sample vault, raw HTTP requests that try every way around its checks, and Debian's chromium
/// driven through chromium-driver (selenium) reviewing by keyboard and by clicking, with
/// screenshots at desktop and phone widths in light and dark (kept in `.build/serve-screens/`).
@Suite(.serialized, .tags(.slow)) struct ServeTests {
    /// A running `quire serve`, its address read from what it prints.
    final class Server: @unchecked Sendable {
        let process: Process
        let url: String
        private let printed = Printed()

        final class Printed: Sendable {
            let text = Mutex<String>("")
            func withLock<R>(_ body: (inout String) -> R) -> R { text.withLock { body(&$0) } }
        }

        init(_ runner: QuireRunner, _ args: [String] = []) throws {
            let p = Process()
            p.executableURL = QuireRunner.executable
            p.arguments = ["serve", "--port", "0", "--now", QuireRunner.now] + args
            p.currentDirectoryURL = runner.vault
            // The editor: a script that writes down what it was asked to open.
            let editor = runner.vault.deletingLastPathComponent().appendingPathComponent("editor.sh")
            try "#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/editor-args\"\n".write(to: editor, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
            var environment = ProcessInfo.processInfo.environment
            environment["VISUAL"] = editor.path
            // The test's own data folder, as QuireRunner gives every command: the user's model never changes a result.
            environment["XDG_DATA_HOME"] = runner.vault.deletingLastPathComponent().appendingPathComponent("data").path
            p.environment = environment
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            p.standardInput = FileHandle.nullDevice
            process = p
            out.fileHandleForReading.readabilityHandler = { [printed] handle in
                let data = handle.availableData
                printed.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            try p.run()
            var found: String?
            for _ in 0..<300 {
                let text = printed.withLock { $0 }
                if let line = text.split(separator: "\n").first(where: { $0.contains("#token=") }) {
                    found = line.trimmingCharacters(in: .whitespaces)
                    break
                }
                if !p.isRunning { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            guard let found else {
                p.terminate()
                throw Failure("quire serve printed no address: \(printed.withLock { $0 })")
            }
            url = found
        }

        var output: String { printed.withLock { $0 } }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The sample vault, and a deck of media cards (math, code, an image, a sound, a note's
    /// script) with files an attacker would plant beside them: links out, a FIFO, a device.
    static func vault() throws -> QuireRunner {
        let q = try QuireRunner()
        try q.write(".quire/device", Data("webtest1\n".utf8))
        // Room in today's plan for the media deck's new cards.
        let config = try q.read(".quire/config.yaml")
        try q.write(".quire/config.yaml", config + Data("new_per_day: 100\n".utf8))
        try q.write("Web/Media.md", Data("""
            ---
            deck: Web
            ---
            # Media

            What is $\\frac{a}{b} + \\sqrt{x^2}$ when $a = b$ and $x = 1$? :: $2$, since $$\\sum_{i=1}^{1} i = 1$$

            What does this print?
            ?
            ```swift
            let x = [1, 2, 3].map { $0 * 2 }
            print(x)
            ```

            Which colour is this square? ![a red square](dot.png) :: red, as here: ![[dot.png|4]]

            Which word is said? [listen](word.wav) :: hello

            """.utf8))
        // A note whose answers are typed, one holding script (the deck's session takes 5 new cards).
        try q.write("Web/Answers.md", Data("""
            ---
            deck: Web
            type: true
            ---

            What does <script>window.__quireAlerted = true; alert(1)</script> do on the page? :: nothing <img src=x onerror="window.__quireAlerted = true">

            """.utf8))
        // A 4×2 red PNG and a short silent WAV, written by hand.
        try q.write("Web/dot.png", Data(Self.png(width: 4, height: 2)))
        try q.write("Web/word.wav", Data(Self.wav(seconds: 0.5)))
        let outside = q.vault.deletingLastPathComponent().appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(Self.png(width: 1, height: 1)).write(to: outside.appendingPathComponent("secret.png"))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: q.vault.appendingPathComponent("Web/outside.png").path,
                                  withDestinationPath: outside.appendingPathComponent("secret.png").path)
        try fm.createSymbolicLink(atPath: q.vault.appendingPathComponent("Outside").path, withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: q.vault.appendingPathComponent("Web/zero.png").path, withDestinationPath: "/dev/zero")
        // A hard link to the file outside: a second name of it, inside the vault's folder.
        try fm.linkItem(atPath: outside.appendingPathComponent("secret.png").path, toPath: q.vault.appendingPathComponent("Web/hard.png").path)
        #expect(mkfifo(q.vault.appendingPathComponent("Web/pipe.png").path, 0o644) == 0)
        try q.write(".git/config", Data("[core]\n\tsecret = yes\n".utf8))
        return q
    }

    static let tool = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Tools/serve-check.py").path

    static func check(_ args: [String]) throws -> [String: Any] {
        let result = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", tool] + args)
        guard result.status == 0, let data = result.stdout.data(using: .utf8),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure("serve-check.py \(args.first ?? "") failed: \(result)")
        }
        return object
    }

    @Test func attacksAreRefused() throws {
        let q = try Self.vault()
        defer { q.cleanUp() }
        let server = try Server(q)
        defer { server.stop() }
        let seen = try Self.check(["attacks", server.url, q.vault.path])
        func status(_ name: String) -> Int { seen[name] as? Int ?? -1 }
        // The token: nothing without it, nor with another; only in its header — never a cookie
        // (which a browser sends to every port of the host), nor the old address with it in the query.
        for name in ["no token", "wrong token", "token in a cookie", "token in the query", "old address form", "links without token",
                     "report without key", "link key for the API", "image without key"] {
            #expect(status(name) == 403, "\(name): \(status(name))")
        }
        #expect(status("page without token") == 200 && (seen["cookie set"] as? String) == "")
        #expect(status("with the token") == 200 && seen["overview start"] as? String == "{")
        let policy = seen["policy"] as? String ?? ""
        #expect(policy.contains("script-src 'self';") && !policy.contains("unsafe") && policy.contains("frame-ancestors 'none'"))
        #expect(seen["nosniff"] as? String == "nosniff")
        // The statistics report: its page (by the link key), with no script allowed.
        #expect(status("report") == 200 && (seen["report start"] as? String ?? "").hasPrefix("<!DOCTYPE html"))
        #expect((seen["report policy"] as? String ?? "").hasPrefix("default-src 'none'; style-src 'unsafe-inline'"))
        // Hosts a DNS rebinding would use, and other ports.
        for name in ["foreign host", "rebinding name", "other port", "empty host"] {
            #expect(status(name) == 421 || status(name) == 400, "\(name): \(status(name))")
        }
        // Other sites' requests.
        for name in ["foreign origin", "null origin", "no page header"] { #expect(status(name) == 403, "\(name)") }
        #expect(status("own origin") == 200 && status("same-origin fetch") == 200 && status("localhost") == 200)
        for name in ["cross-site fetch", "same-site fetch"] { #expect(status(name) == 403, "\(name)") }
        // Headers past their limits: an error status or the connection closed, never an answer.
        for name in ["huge header", "many headers"] { #expect(status(name) == 0 || status(name) >= 400, "\(name): \(status(name))") }
        // Files: the image only; every way out of the vault, into its hidden folders, through
        // links or special files is "not found".
        #expect(status("image") == 200 && seen["image type"] as? String == "image/png")
        #expect((seen["image policy"] as? String ?? "").contains("sandbox"))
        for name in ["dot dot", "encoded dot dot", "encoded slash", "double encoded", "absolute", "backslash", "nul",
                     "quire folder", "git folder", "a note", "link out", "folder link out", "hard link out", "fifo", "device link",
                     "katex outside", "katex font traversal"] {
            #expect(status(name) == 404 || status(name) == 400, "\(name): \(status(name))")
        }
        #expect(status("dot dot inside") == 404 || status("dot dot inside") == 200)
        // The server still answers after all that (the FIFO did not hang it).
        #expect(server.process.isRunning)
    }

    /// The report page is made from the server's live index: 200 views of it on a vault of
    /// 4,000 cards leave the server's memory where the first views left it (it grew by the index
    /// of each view when every view indexed the vault again and kept what it built).
    @Test func reportViewsKeepTheServersMemoryFlat() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        for n in 0..<200 {
            let cards = (0..<20).map { "What is fact \(n)-\($0) of the set? :: answer \(n)-\($0)" }.joined(separator: "\n\n")
            try q.write("Bulk/note-\(n).md", Data("# Note \(n)\n\n\(cards)\n".utf8))
        }
        let server = try Server(q)
        defer { server.stop() }
        func resident() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        // The report, `count` times, at the address the page links (with the link key).
        func views(_ count: Int) throws {
            let run = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
                import json, sys, urllib.request
                base, token = sys.argv[1].split("#token=")
                base = base.rstrip("/")
                links = json.load(urllib.request.urlopen(urllib.request.Request(base + "/api/links", headers={"X-Quire-Token": token})))
                for _ in range(int(sys.argv[2])):
                    page = urllib.request.urlopen(base + links["report"]).read()
                    assert page.startswith(b"<!DOCTYPE html"), page[:200]
                """, server.url, "\(count)"])
            #expect(run.status == 0, "\(run)")
        }
        try views(20)
        let warm = try resident()
        try views(200)
        let after = try resident()
        print("quire serve, resident memory: \(warm) kB after 20 report views, \(after) kB after 220")
        #expect(warm > 0 && after - warm < 20_000, "\(warm) kB → \(after) kB")
    }

    @Test(.requires(.chromium, .selenium)) func reviewInABrowser() throws {
        let q = try Self.vault()
        defer { q.cleanUp() }
        let server = try Server(q)
        defer { server.stop() }
        let shots = QuireRunner.repositoryRoot.appendingPathComponent(".build/serve-screens")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let seen = try Self.check(["browser", server.url, q.vault.path, shots.path])
        let base = String(server.url.split(separator: "#")[0])
        let token = String(server.url.split(separator: "=").last ?? "")
        // The token left the address bar (and the history); no cookie holds it, and another
        // program on another port of this machine, visited by the same browser, gets nothing of it.
        #expect(seen["address after login"] as? String == base)
        #expect((seen["cookies"] as? [String]) == [])
        // A token another site put in the address replaces nothing: the page goes on with its own.
        #expect((seen["after a foreign token"] as? String ?? "").contains("Study today's plan"), "\(seen["after a foreign token"] ?? "")")
        let otherPort = seen["other port headers"] as? [[String: String]] ?? []
        #expect(!otherPort.isEmpty && !otherPort.contains { $0.values.contains { $0.contains(token) } || $0.keys.contains { $0.lowercased() == "cookie" } },
                "\(otherPort)")
        #expect((seen["overview"] as? String ?? "").contains("Study today's plan"))
        #expect((seen["buttons"] as? [String] ?? []).count >= 3)
        #expect(seen["edit followed"] as? Bool == true)
        // e opened the card's note at its line.
        let args = seen["editor args"] as? [String] ?? []
        #expect(args.count == 2 && args[0].hasPrefix("+") && args[1].hasSuffix(".md") && args[1].hasPrefix(q.vault.path), "\(args)")
        let graded = (seen["graded"] as? [[String]] ?? [])
        #expect(graded.count >= 4)
        // Undo brought the card answered Again back; the second tab did not get the card answered.
        #expect(seen["second tab first card"] as? String != graded.first?.first)
        // Math through KaTeX, code through highlight.js, the image and the sound from the vault.
        #expect((seen["math"] as? Int ?? 0) >= 1)
        #expect((seen["code"] as? Int ?? 0) >= 1)
        #expect(seen["image width"] as? Int == 4)
        // Obsidian's embed by bare name: the image from the vault, its width as written.
        #expect(seen["embed width"] as? String == "4", "\(seen["embed width"] ?? "none")")
        #expect((seen["audio"] as? Double ?? -1) > 0.4)
        // The typed answer: compared on the page, logged with the grade.
        #expect((seen["typed comparison"] as? String ?? "").hasPrefix("✗"), "\(seen["typed comparison"] ?? "none")")
        #expect(String(decoding: try q.read(".quire/log/webtest1.log"), as: UTF8.self).contains("typed=cosa"))
        // The note's script is text; nothing ran.
        #expect(seen["script elements"] as? Int == 0)
        #expect(seen["alerted"] as? Bool == false)
        #expect(seen["phone overflow"] as? Bool == false && seen["phone overview overflow"] as? Bool == false)
        #expect(seen["theme"] as? String == "dark")
        // No Content-Security-Policy violation nor failed load in the console.
        #expect((seen["console"] as? [String] ?? ["?"]).isEmpty, "\(seen["console"] ?? "")")
        // The log holds each grade the page made, in order, and the undo.
        let log = String(decoding: try q.read(".quire/log/webtest1.log"), as: UTF8.self)
        let grades = log.split(separator: "\n").filter { $0.contains(" grade ") }.map { line -> [String] in
            let f = line.split(separator: " ")
            return [String(f[2]), String(f[3])]
        }
        let undone = log.split(separator: "\n").filter { $0.contains(" undo ") }
        #expect(undone.count == 1)
        // Every grade the page made is in the log; the log has one more, the one undone.
        #expect(grades.count == graded.count + 1, "\(grades) vs \(graded)")
        for g in graded { #expect(grades.contains(g), "\(g)") }
        // Search found the word, marked; curation kept the note: its cycle moved on, the log says so.
        #expect((seen["search hits"] as? Int ?? 0) >= 1)
        #expect((seen["search marks"] as? [String] ?? []).contains { $0.lowercased() == "mitochondria" })
        // A hit read on the page: the note's text, scrolled to the hit.
        #expect((seen["read text"] as? String ?? "").lowercased().contains("mitochondria"), "\(seen["read text"] ?? "none")")
        #expect(seen["read hit shown"] as? Bool == true)
        #expect((seen["curation heading"] as? String ?? "").hasPrefix("Weekly review of"))
        let curated = try #require(seen["curated note"] as? String)
        #expect(String(decoding: try q.read(curated), as: UTF8.self).contains("cycle: weekly"))
        let curationLog = try FileManager.default.contentsOfDirectory(atPath: q.vault.appendingPathComponent(".quire/curation").path)
        #expect(!curationLog.isEmpty)
        // The note edited outside kept the edit (the page's writes never clobbered it).
        let edited = try #require(seen["edited note"] as? String)
        #expect(String(decoding: try q.read(edited), as: UTF8.self).contains("EDITED-OUTSIDE"))
    }

    /// Listening on another loopback address: the address printed answers (it was refused as a
    /// host the server did not know, 421).
    /// The chunks of a vault's search index, and how many have no vector (read by Python's sqlite3).
    static func searchCounts(_ q: QuireRunner) throws -> (chunks: Int, missing: Int, magma: Int) {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            chunks = db.execute("SELECT count(*) FROM info").fetchone()[0]
            missing = db.execute("SELECT count(*) FROM info WHERE hash NOT IN (SELECT hash FROM vectors)").fetchone()[0]
            magma = db.execute("SELECT count(*) FROM chunks WHERE chunks MATCH 'magma'").fetchone()[0]
            print(chunks, missing, magma)
            """
        let path = q.vault.appendingPathComponent(".quire/cache/search.sqlite").path
        let r = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, path])
        let n = r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard n.count == 3 else { throw Failure("search index counts: \(r)") }
        return (n[0], n[1], n[2])
    }

    /// `quire serve` keeps a vault's search index current as `quire watch` does: the vectors a
    /// words-only index lacks computed in the background, a note written while it serves indexed
    /// with its words and then its vectors, the page answering meanwhile.
    @Test(.requires(.searchModel)) func theSearchIndexFollowsTheVaultWhileServing() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        #expect(try q.run(["model", "install", "--from", try SemanticSearchTests.wheel()]).status == 0)
        let words = try q.run(["index", "--lexical"])
        #expect(words.status == 0, "\(words)")
        let before = try Self.searchCounts(q)
        #expect(before.chunks > 0 && before.missing == before.chunks, "\(before)")
        let server = try Server(q)
        defer { server.stop() }
        func waitFor(_ what: String, _ done: ((chunks: Int, missing: Int, magma: Int)) -> Bool) throws {
            for _ in 0..<600 {
                if done(try Self.searchCounts(q)) { return }
                Thread.sleep(forTimeInterval: 0.2)
            }
            Issue.record("\(what): \(try Self.searchCounts(q)); the server said: \(server.output)")
        }
        try waitFor("every chunk given a vector") { $0.missing == 0 }
        try q.write("Geology/lava.md", Data("# Lava\n\nMagma that reaches the surface is called lava.\n".utf8))
        try waitFor("the new note's words and vectors") { $0.magma > 0 && $0.missing == 0 && $0.chunks > before.chunks }
        #expect(server.process.isRunning)
    }

    @Test func anotherLoopbackAddressAnswersAtThePrintedAddress() throws {
        let q = try Self.vault()
        defer { q.cleanUp() }
        let server = try Server(q, ["--listen", "127.0.0.2"])
        defer { server.stop() }
        #expect(server.url.hasPrefix("http://127.0.0.2:"), "\(server.url)")
        let seen = try Self.check(["fetch", server.url, "/api/overview"])
        #expect(seen["status"] as? Int == 200, "\(seen)")
    }

    /// Serving the network: the address with its token, and a QR code a phone reads — here
    /// zbar, from the terminal's own characters.
    @Test(.requires(.zbar)) func aPhoneReadsTheAddress() throws {
        let pane = try ReviewScreenTests.Pane(size: (100, 60), arguments: ["serve", "--listen", "0.0.0.0", "--port", "0"])
        defer { pane.close() }
        let screen = try pane.waitFor { $0.contains("Ctrl-C stops") }
        let urls = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("http://") }
        let phone = try #require(urls.last)
        #expect(phone.contains("/#token=") && urls.allSatisfy { $0.hasSuffix(String(phone.split(separator: "=").last ?? "")) })
        // The half-block lines back to modules: a light module is drawn (the code is inverted for a dark terminal).
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.isEmpty && $0.allSatisfy { "█▀▄ ".contains($0) } && $0.contains("█") }
        let width = lines.map(\.count).max() ?? 0
        #expect(width >= 21 + 4 && lines.count >= 11)
        var rows: [[Bool]] = []
        for line in lines {
            let chars = Array(line.padding(toLength: width, withPad: " ", startingAt: 0))
            rows.append(chars.map { $0 == "█" || $0 == "▀" })
            rows.append(chars.map { $0 == "█" || $0 == "▄" })
        }
        // A PGM, 4 pixels a module, with a light margin.
        let scale = 4, margin = 8
        let w = (width + 2 * margin) * scale, h = (rows.count + 2 * margin) * scale
        var pixels = [UInt8](repeating: 255, count: w * h)
        for (y, row) in rows.enumerated() {
            for (x, light) in row.enumerated() where !light {
                for dy in 0..<scale { for dx in 0..<scale { pixels[((y + margin) * scale + dy) * w + (x + margin) * scale + dx] = 0 } }
            }
        }
        let file = pane.q.vault.deletingLastPathComponent().appendingPathComponent("qr.pgm")
        try (Data("P5\n\(w) \(h)\n255\n".utf8) + Data(pixels)).write(to: file)
        let read = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        #expect(read.stdout.trimmingCharacters(in: .newlines) == phone, "\(read)")
    }

    // MARK: - Files written by hand

    static func png(width: Int, height: Int) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc(body))
        }
        var raw: [UInt8] = []
        for _ in 0..<height { raw += [0] + Array(repeating: [255, 0, 0], count: width).flatMap { $0 } }
        // A stored (uncompressed) deflate block inside a zlib stream.
        var a: UInt32 = 1, b: UInt32 = 0
        for x in raw { a = (a + UInt32(x)) % 65_521; b = (b + a) % 65_521 }
        let n = UInt16(raw.count)
        let zlib: [UInt8] = [0x78, 0x01, 1, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8)] + raw + be32(b << 16 | a)
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func wav(seconds: Double) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), UInt8(v >> 24)] }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8)] }
        let rate: UInt32 = 8000
        let samples = [UInt8](repeating: 0, count: Int(Double(rate) * seconds) * 2)
        return Array("RIFF".utf8) + le32(UInt32(36 + samples.count)) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
            + le32(rate) + le32(rate * 2) + le16(2) + le16(16) + Array("data".utf8) + le32(UInt32(samples.count)) + samples
    }
}
