import QuireTerminal
import Foundation
import QuireMarkdown

/// `quire help TOPIC`: a chapter of the documentation, read from the docs installed beside the
/// binary (`make install`: PREFIX/share/doc/quire) or, run from a build, from the repository's
/// docs/ folder; rendered for the terminal as `quire show` renders Markdown.
enum HelpTopic {
    /// A topic: its file, and the headings of the parts that make it (the whole file when none).
    struct Topic {
        var name: String
        var about: String
        var file: String
        var sections: [String] = []
    }

    static let topics: [Topic] = [
        Topic(name: "format", about: "notes, cards, decks and tags as written", file: "FORMAT.md", sections: ["## 2.", "## 3.", "## 4."]),
        Topic(name: "queries", about: "the query language (deck:, tag:, is:, …)", file: "QUERIES.md"),
        Topic(name: "scheduling", about: "scheduling state, the review log, settings", file: "FORMAT.md", sections: ["## 5.", "## 6.", "## 7."]),
        Topic(name: "curation", about: "weekly, monthly and yearly keep-or-archive reviews", file: "FORMAT.md", sections: ["### 2.2"]),
        Topic(name: "sync", about: "several devices, git and the merge driver", file: "FORMAT.md", sections: ["### 6.5"]),
        Topic(name: "interchange", about: "CSV, Anki, Obsidian, PDFs and recordings in and out", file: "INTERCHANGE.md"),
        Topic(name: "serve", about: "the web review page and its security", file: "SERVE.md"),
        Topic(name: "quiz", about: "quizzes", file: "QUIZ.md"),
        Topic(name: "json", about: "the --json outputs", file: "JSON.md"),
        Topic(name: "security", about: "what a hostile vault cannot do", file: "SECURITY.md"),
    ]

    /// Prints `name`'s chapter; false when no topic has that name (the caller then lets the
    /// argument parser's `help COMMAND` answer).
    static func show(_ name: String) -> Bool {
        guard let topic = topics.first(where: { $0.name == name }) else { return false }
        guard let text = read(topic.file) else {
            Output.error("quire: the documentation is not installed here (make install puts it in PREFIX/share/doc/quire)")
            exit(1)
        }
        let markdown = topic.sections.isEmpty ? text : topic.sections.compactMap { section(of: text, starting: $0) }.joined(separator: "\n\n")
        Output.write(MarkdownRenderer.ansi(markdown, color: Output.useColor, width: 100))
        Output.flush()
        return true
    }

    /// The list of topics, for `quire help topics`.
    static var list: String {
        "Topics (quire help TOPIC):\n" + topics.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.about }.joined(separator: "\n") + "\n"
    }

    /// A documentation file: beside the installed binary, else in the repository the binary was built in.
    static func read(_ file: String) -> String? {
        let exe = URL(fileURLWithPath: Quire.executablePath)
        var folder = exe.deletingLastPathComponent()
        var candidates = [folder.deletingLastPathComponent().appendingPathComponent("share/doc/quire/" + file)]
        // A build's binary: .build/<triple>/<configuration>/quire, the repository four folders up.
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent("docs/" + file))
        }
        for url in candidates {
            if let data = FileManager.default.contents(atPath: url.path) { return String(decoding: data, as: UTF8.self) }
        }
        return nil
    }

    /// The part of `text` from the heading starting with `prefix` to the next heading of the
    /// same or a higher level.
    static func section(of text: String, starting prefix: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(prefix) }) else { return nil }
        let level = lines[start].prefix { $0 == "#" }.count
        var end = start + 1
        var fence = false
        while end < lines.count {
            let line = lines[end]
            if line.hasPrefix("```") || line.hasPrefix("~~~") { fence.toggle() }
            if !fence, line.hasPrefix("#") {
                let hashes = line.prefix { $0 == "#" }.count
                if hashes <= level, line.dropFirst(hashes).hasPrefix(" ") { break }
            }
            end += 1
        }
        return lines[start..<end].joined(separator: "\n")
    }
}
