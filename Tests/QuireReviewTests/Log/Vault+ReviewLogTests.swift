@testable import QuireReview
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// Reading every log file of a vault.
@Suite struct VaultReviewLogTests {
    @Test func logFilesThroughTheVault() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            try dir.write(".quire/log/b.log", "# quire log v1\n2026-11-22T09:14:03.120Z suspend 7k2m9xq4v1ab\nbroken\n")
            try dir.write(".quire/log/a.log", "2026-11-22T09:14:04.000Z reset 7k2m9xq4v1ab\n")
            try dir.write(".quire/log/.hidden.log", "junk\n")
            try dir.write(".quire/log/notes.txt", "junk\n")
            #expect(vault.reviewLogFiles() == [".quire/log/a.log", ".quire/log/b.log"])
            let (events, diagnostics) = vault.reviewLog()
            #expect(events.map(\.action) == [.reset, .suspend])
            #expect(printed(diagnostics) == [".quire/log/b.log:3:7: error: expected 'TIME EVENT CARD …'"])
            #expect(printed(vault.reviewLogDiagnostics()) == printed(diagnostics))
        }
    }
}
