import Testing
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// `quire doctor`'s checks on real folders: a healthy vault, and one with every problem it names.
@Suite struct DoctorTests {
    func levels(_ findings: [Doctor.Finding]) -> [String: Doctor.Finding.Level] {
        Dictionary(findings.map { ($0.title, $0.level) }) { a, _ in a }
    }

    @Test func aHealthyVault() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
            try dir.write("a.md", "Q? :: A\n")
            let found = Doctor.vault(LoadedVault(try Vault(root: dir.path), cached: false), inotifyLimit: 8192)
            #expect(found.allSatisfy { $0.level == .ok || $0.level == .note }, "\(found)")
            #expect(found.first?.detail.hasSuffix("1 note, 1 card") == true)
        }
    }

    @Test func everyProblemWithItsFix() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "scheduler: fsrs\ndesired_retention: 7\n")
            try dir.write("a.md", "Q? :: A\n")
            try dir.write("b.md", "---\nbad: [\n---\nQ? :: A\n")
            try dir.write(".a.md.quire-999999-1.tmp", "half")
            try dir.write(".quire/staging/x/y.md", "half")
            try dir.write(".git/config", "[core]\n")
            for k in 0..<20 { try dir.write("f\(k)/n.md", "Q\(k)? :: A\n") }
            let found = Doctor.vault(LoadedVault(try Vault(root: dir.path), cached: false), inotifyLimit: 16)
            let level = levels(found)
            #expect(level["notes"] == .error)
            #expect(level["temporary files"] == .warning)
            #expect(level["staging"] == .warning)
            #expect(level["git"] == .warning && level[".gitignore"] == .warning)
            #expect(level["watcher"] == .warning)
            #expect(level["settings"] == .error || level["settings"] == .warning)
            #expect(found.filter { $0.level != .ok }.allSatisfy { $0.fix != nil })
        }
    }

    /// A vault set up before `ignore:` existed, with Obsidian's templates read as notes: said,
    /// with the command that leaves them out; once done, nothing to say.
    @Test func obsidiansTemplatesReadAsNotes() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "ignore: ['**/*.draft.md']\n")
            try dir.write(".obsidian/templates.json", "{\"folder\": \"Templates\"}")
            try dir.write("Templates/daily.md", "---\ndate: {{date}}\n---\n")
            try dir.write("a.md", "Q? :: A\n")
            let found = Doctor.vault(LoadedVault(try Vault(root: dir.path), cached: false), inotifyLimit: nil)
            let finding = try #require(found.first { $0.title == "templates" })
            #expect(finding.level == .warning && finding.detail == "Obsidian's template folder 'Templates' read as notes (their placeholders are no YAML)")
            #expect(finding.fix == "quire config set ignore \"['**/*.draft.md', Templates]\"")
            try dir.write(".quire/config.yaml", "ignore: ['**/*.draft.md', Templates]\n")
            let after = Doctor.vault(LoadedVault(try Vault(root: dir.path), cached: false), inotifyLimit: nil)
            #expect(!after.contains { $0.title == "templates" } && after.allSatisfy { $0.level == .ok || $0.level == .note }, "\(after)")
        }
    }

    @Test func aFolderThatIsNoVault() throws {
        try withTempDir { dir in
            try dir.write("a.md", "Q? :: A\n")
            let found = Doctor.vault(LoadedVault(try Vault(root: dir.path), cached: false), inotifyLimit: nil)
            #expect(found.count == 1 && found[0].level == .error && found[0].fix?.hasPrefix("quire init") == true)
        }
    }

    @Test func programsAreFoundOnThePath() throws {
        try withTempDir { dir in
            try dir.write("bin/git", "#!/bin/sh\n")
            try dir.chmod("bin/git", 0o755)
            try dir.write("bin/ffmpeg", "not executable")
            let found = Doctor.installation(environment: ["PATH": dir.full("bin"), "HOME": dir.path])
            let level = levels(found)
            #expect(level["git"] == .ok && level["ffmpeg"] == .note && level["pdftotext"] == .note)
            #expect(found.first { $0.title == "git" }?.detail == dir.full("bin/git"))
            #expect(level["language model"] == .note)
            // Installed, but its runtime gone: a warning saying how to fix it.
            try dir.write(".local/share/quire/models/llm/model.gguf", "GGUF")
            try dir.write(".local/share/quire/models/llm/model.json",
                          #"{"name": "m", "package": "p==1", "bytes": 4, "runtime": "/nonexistent"}"#)
            let again = levels(Doctor.installation(environment: ["PATH": dir.full("bin"), "HOME": dir.path]))
            #expect(again["language model"] == .warning)
        }
    }
}
