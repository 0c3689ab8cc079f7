import Foundation
import Testing
@testable import QuireSystem
@testable import QuireVault

/// What the review screen's `o` may open: only images and the like, inside the vault.
@Suite struct VaultAttachmentTests {
    @Test func onlySafeFilesInsideTheVaultAreOpened() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quire-attach-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("vault")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent(".quire"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("Notes/img"), withIntermediateDirectories: true)
        try Data("png".utf8).write(to: root.appendingPathComponent("Notes/img/cat one.png"))
        try Data("png".utf8).write(to: root.appendingPathComponent("top.png"))
        try Data("#!/bin/sh".utf8).write(to: root.appendingPathComponent("Notes/run.sh"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("outside.png"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Notes/link.png").path, withDestinationPath: base.appendingPathComponent("outside.png").path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("Notes/out").path, withDestinationPath: base.path)
        #expect(mkfifo(root.appendingPathComponent("Notes/fifo.png").path, 0o600) == 0)
        let vault = try Vault(root: root.path)
        #expect(vault.attachmentPath("img/cat%20one.png", fromNote: "Notes/n.md") == root.path + "/Notes/img/cat one.png")
        #expect(vault.attachmentPath("top.png|200", fromNote: "Notes/n.md") == root.path + "/top.png")
        for refused in ["run.sh", "link.png", "out/outside.png", "fifo.png", "../outside.png", "/etc/passwd.png", "missing.png"] {
            #expect(vault.attachmentPath(refused, fromNote: "Notes/n.md") == nil, "\(refused)")
        }
    }
}
