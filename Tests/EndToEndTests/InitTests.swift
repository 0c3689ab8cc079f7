import Foundation
import Testing

/// `quire init` takes its folder as an argument or as -C, like every other command.
@Suite struct InitTests {
    @Test func folderByArgumentOrByC() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        for name in ["by-c", "by-argument"] {
            try FileManager.default.createDirectory(at: base.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let byC = try q.run(["-C", base.appendingPathComponent("by-c").path, "init"], workingDirectory: base)
        #expect(byC.status == 0 && byC.stdout.hasPrefix("Initialized Quire vault in "), "\(byC)")
        #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("by-c/.quire/config.yaml").path))
        let byArgument = try q.run(["init", base.appendingPathComponent("by-argument").path], workingDirectory: base)
        #expect(byArgument.status == 0, "\(byArgument)")
        let both = try q.run(["-C", base.appendingPathComponent("by-c").path, "init", base.appendingPathComponent("by-argument").path],
                             workingDirectory: base)
        #expect(both.status != 0 && both.stderr.contains("give the folder once"), "\(both)")
    }
}
