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

    /// Paths resolved as Obsidian resolves them: `..` from the note's folder, a bare name found
    /// anywhere (the nearest the top), a note by its name; never above the vault or in a hidden
    /// folder.
    @Test func pathsResolveAsObsidianResolvesThem() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quire-attach-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("vault")
        let fm = FileManager.default
        for folder in ["Course/ML", "assets", "Course/old/assets", ".trash"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["assets/slide-04.png", "Course/old/assets/slide-04.png", ".trash/gone.png", "Course/Other note.md"] {
            try Data("x".utf8).write(to: root.appendingPathComponent(file))
        }
        try Data("x".utf8).write(to: base.appendingPathComponent("outside.png"))
        let vault = try Vault(root: root.path)
        #expect(vault.attachmentPath("../../assets/slide-04.png", fromNote: "Course/ML/a.md") == root.path + "/assets/slide-04.png")
        #expect(vault.attachmentPath("./../old/assets/slide-04.png", fromNote: "Course/ML/a.md") == root.path + "/Course/old/assets/slide-04.png")
        #expect(vault.attachmentPath("slide-04.png", fromNote: "Course/ML/a.md") == root.path + "/assets/slide-04.png")
        #expect(vault.attachmentPath("SLIDE-04.PNG", fromNote: "Course/ML/a.md") == root.path + "/assets/slide-04.png")
        for refused in ["../../../outside.png", "gone.png", "../../.trash/gone.png"] {
            #expect(vault.attachmentPath(refused, fromNote: "Course/ML/a.md") == nil, "\(refused)")
        }
        // A file added while the vault is open is found (the names are read again on a miss).
        #expect(vault.attachmentPath("new.png", fromNote: "a.md") == nil)
        try Data("x".utf8).write(to: root.appendingPathComponent("Course/new.png"))
        Thread.sleep(forTimeInterval: 1.1)
        #expect(vault.attachmentPath("new.png", fromNote: "a.md") == root.path + "/Course/new.png")
        #expect(vault.notePath(named: "Other note", fromNote: "Course/ML/a.md") == "Course/Other note.md")
        #expect(vault.notePath(named: "../Other note.md", fromNote: "Course/ML/a.md") == "Course/Other note.md")
        #expect(vault.notePath(named: "Nothing", fromNote: "a.md") == nil)
    }
}
