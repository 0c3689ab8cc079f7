import Foundation
import Testing
import QuireSystem
@testable import QuireSync
@testable import QuireTestSupport

/// The merge driver git calls for a note both sides changed, in a real git work tree: text merged
/// by git's own merge-file, scheduling blocks kept apart, git's file replaced with the result.
@Suite struct GitMergeDriverTests {
    static func repository(_ dir: TempDir) throws -> GitMergeDriver {
        let git = ChildProcess.run(["git", "init", "-q", dir.path])
        #expect(git.status == 0, "\(git.errorText)")
        try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
        return try GitMergeDriver(directory: dir.path, environment: [:])
    }

    static let base = "---\ntitle: Cells\n---\n# Cells\n\nWhat makes ATP? :: The mitochondrion\n\nText one.\n\nText two.\n"

    @Test func outsideARepositoryIsRefused() throws {
        try withTempDir { dir in
            #expect(throws: SyncError.self) { try GitMergeDriver(directory: dir.path, environment: [:]) }
        }
    }

    @Test func editsOnBothSidesMerge() throws {
        try withTempDir { dir in
            let driver = try Self.repository(dir)
            let ours = Self.base.replacingOccurrences(of: "Text one.", with: "Text one, edited here.")
            let theirs = Self.base.replacingOccurrences(of: "Text two.", with: "Text two, edited there.")
            let (bytes, report) = try driver.merged(base: Array(Self.base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8), path: "cells.md")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("Text one, edited here.") && text.contains("Text two, edited there."))
            #expect(!report.hasConflicts && !report.mergedAsText)
        }
    }

    @Test func theSameLineEditedTwiceIsLeftToTheUser() throws {
        try withTempDir { dir in
            let driver = try Self.repository(dir)
            let ours = Self.base.replacingOccurrences(of: "Text one.", with: "Ours.")
            let theirs = Self.base.replacingOccurrences(of: "Text one.", with: "Theirs.")
            let (bytes, report) = try driver.merged(base: Array(Self.base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8), path: "cells.md")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(report.hasConflicts && text.contains("<<<<<<<") && text.contains("Ours.") && text.contains("Theirs."))
        }
    }

    @Test func unreadableFrontMatterIsMergedAsText() throws {
        try withTempDir { dir in
            let driver = try Self.repository(dir)
            let broken = Self.base.replacingOccurrences(of: "title: Cells", with: "title: [unclosed")
            let ours = broken.replacingOccurrences(of: "Text one.", with: "Ours.")
            let (bytes, report) = try driver.merged(base: Array(broken.utf8), ours: Array(ours.utf8), theirs: Array(broken.utf8), path: "cells.md")
            #expect(report.mergedAsText && !report.hasConflicts)
            #expect(String(decoding: bytes, as: UTF8.self).contains("Ours."))
        }
    }

    @Test func gitsFileReceivesTheResult() throws {
        try withTempDir { dir in
            let driver = try Self.repository(dir)
            try dir.write("o.tmp", Self.base)
            try dir.write("a.tmp", Self.base.replacingOccurrences(of: "Text one.", with: "Ours."))
            try dir.write("b.tmp", Self.base.replacingOccurrences(of: "Text two.", with: "Theirs."))
            let report = try driver.merge(base: dir.full("o.tmp"), ours: dir.full("a.tmp"), theirs: dir.full("b.tmp"), path: "cells.md")
            #expect(!report.hasConflicts)
            let merged = try dir.text("a.tmp")
            #expect(merged.contains("Ours.") && merged.contains("Theirs."))
            // A path that is no plain path in the work tree finds no vault: git's rules alone, no crash.
            let (bytes, _) = try driver.merged(base: Array(Self.base.utf8), ours: Array(Self.base.utf8), theirs: Array(Self.base.utf8), path: "../outside.md")
            #expect(bytes == Array(Self.base.utf8))
        }
    }
}
