import Foundation
import Testing

/// `quire search` through the real binary: ranked hits with path:line, filters, the index kept up
/// to date with the notes, nothing of a note's bytes printed raw.
@Suite struct SearchTests {
    @Test func searchFindsKeepsUpAndFilters() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let atp = try q.run(["search", "ATP", "deck:Biology", "--cards", "--limit", "3"])
        #expect(atp.status == 0 && atp.stdout.hasPrefix("1. Biology/"), "\(atp)")
        #expect(atp.stdout.components(separatedBy: "\n").filter { $0.range(of: #"^\d+\. "#, options: .regularExpression) != nil }.count == 3)
        #expect(atp.stdout.contains("[ATP]") && atp.stdout.contains("· card "))
        #expect(FileManager.default.fileExists(atPath: q.vault.appendingPathComponent(".quire/cache/search.sqlite").path))
        // A note written after the index was built is found at the next search; a removed one is gone.
        try q.write("Notes/zebra.md", Data("# Stripes\n\nThe quagga was a zebra of South Africa.\n".utf8))
        let zebra = try q.run(["search", "quagga", "--json"])
        #expect(zebra.stdout.contains("\"path\": \"Notes/zebra.md\"") && zebra.stdout.contains("\"line\": 3"), "\(zebra)")
        try FileManager.default.removeItem(at: q.vault.appendingPathComponent("Notes/zebra.md"))
        #expect(try q.run(["search", "quagga"]).stdout == "No match for quagga.\n")
        // A note's terminal escapes are shown, not sent.
        try q.write("Notes/evil.md", Data("Plain \u{1B}]0;pwned\u{07} trap word here.\n".utf8))
        let evil = try q.run(["search", "trap"])
        #expect(evil.status == 0 && !evil.stdout.contains("\u{1B}") && evil.stdout.contains("^["), "\(evil)")
        // A damaged index is a cache: made anew from the notes.
        try q.write(".quire/cache/search.sqlite", Data("not a database at all, just bytes".utf8))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(at: q.vault.appendingPathComponent(".quire/cache/search.sqlite" + suffix)) }
        let rebuilt = try q.run(["search", "trap"])
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("Notes/evil.md:1"), "\(rebuilt)")
        // --open N: the editor at the hit's line.
        let script = q.vault.deletingLastPathComponent().appendingPathComponent("editor.sh")
        let record = q.vault.deletingLastPathComponent().appendingPathComponent("editor-args")
        try Data("#!/bin/sh\necho \"$@\" > '\(record.path)'\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        let opened = try q.run(["search", "trap", "--open", "1"], environment: ["VISUAL": script.path])
        #expect(opened.status == 0, "\(opened)")
        let args = String(decoding: try Data(contentsOf: record), as: UTF8.self)
        #expect(args.hasPrefix("+1 ") && args.contains("Notes/evil.md"), "\(args)")
        #expect(try q.run(["search", "trap", "--open", "9"], environment: ["VISUAL": script.path]).status != 0)
        // Only filters is not a search.
        #expect(try q.run(["search", "deck:Biology"]).status != 0)
    }

    /// `quire ask` on the sample vault: a card answers with its back, never with its question;
    /// a sentence is shown as the terminal shows Markdown (a wiki link by its text), escapes visible.
    @Test func askAnswersWithTheCardsBackAndRendersTheSentence() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let produce = try q.run(["ask", "what does the mitochondrion produce?"])
        #expect(produce.status == 0 && produce.stdout.hasPrefix("Most of the cell's ATP, by oxidative phosphorylation"), "\(produce)")
        #expect(produce.stdout.contains("[1] Biology/Cells/organelles.md:25") && !produce.stdout.contains("produce, and how?"), "\(produce)")
        try q.write("Notes/pump.md", Data("The pump moves sodium \u{1B}]0;x\u{07} ions out of the cell with **energy** from [[ATP|adenosine triphosphate]].\n".utf8))
        let pump = try q.run(["ask", "what moves sodium ions out of the cell"])
        #expect(pump.stdout.hasPrefix("The pump moves sodium ^[]0;x^G ions out of the cell with energy from adenosine triphosphate. [1]"), "\(pump)")
        let json = try q.run(["ask", "what moves sodium ions out of the cell", "--json"])
        #expect(json.stdout.contains("[[ATP|adenosine triphosphate]]"), "\(json)")
    }
}
