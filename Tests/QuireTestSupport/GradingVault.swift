import QuireSupport
import Foundation
import QuireModel
import QuireScheduling
import QuireSystem
import QuireParsing
import QuireReview
import QuireVault

/// A vault in a temporary folder with a few notes, for grading tests.
package struct GradingVault {
    package let dir: TempDir
    package let vault: Vault

    package static let biology = """
        ---
        title: Organelles
        tags: [biology]   # keep this comment
        ---
        # Organelles

        Q: What is the powerhouse of the cell?
        A: The mitochondrion.

        Ribosome :: the site of protein synthesis.

        The {{c1::nucleus}} holds the {{c2::DNA}}.

        """

    /// A vault holding `notes` (relative path → text), with `.quire/config.yaml` from `config`.
    package static func make(_ dir: TempDir, config: String = "", notes: [String: String] = ["Biology/organelles.md": biology],
                     io: FileIO = FileIO()) throws -> GradingVault {
        try Vault.initialize(dir.path)
        try dir.write(".quire/config.yaml", config)
        for (path, text) in notes { try dir.write(path, text) }
        return GradingVault(dir: dir, vault: try Vault(root: dir.path, io: io))
    }

    /// A writer for device `test0001` with the vault's current configuration.
    package func writer(io: FileIO? = nil) throws -> ReviewWriter {
        let v = try io.map { try Vault(root: dir.path, io: $0) } ?? vault
        return ReviewWriter(vault: v, config: v.config().config, device: "test0001")
    }

    /// The cards of a note as the parser reads it now.
    package func cards(_ path: String) throws -> [Card] {
        try NoteParser.parse(dir.read(path), path: path).note?.cards ?? []
    }

    /// The log lines of device `test0001`, without the header.
    package func logLines() throws -> [String] {
        guard FileManager.default.fileExists(atPath: dir.full(Vault.logPath(device: "test0001"))) else { return [] }
        return try dir.text(Vault.logPath(device: "test0001")).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    /// What `quire replay --check` finds.
    package func replay() -> ReviewReplay {
        let v = (try? Vault(root: dir.path)) ?? vault
        return ReviewReplay(vault: v, index: v.index(concurrency: 1), config: v.config().config)
    }
}

/// A time on 2026-11-`day` at `hour`:`minute` UTC.
package func at(_ day: Int, _ hour: Int = 9, _ minute: Int = 0) -> Timestamp {
    Timestamp(year: 2026, month: 11, day: day, hour: hour, minute: minute)
}

/// A deterministic random-number generator (SplitMix64) for tests that need many varied cases.
package typealias SeededGenerator = SplitMix64

/// The `id=` of a log line, if it has one.
package func eventID(_ line: String) -> String? {
    line.split(separator: " ").first { $0.hasPrefix("id=") }.map { String($0.dropFirst(3)) }
}
