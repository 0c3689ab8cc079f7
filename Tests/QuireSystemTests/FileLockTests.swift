import Foundation
import Testing
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// The vault's write lock: re-entrant for its thread, exclusive between threads and processes,
/// gone with its holder, never through a link.
@Suite(.serialized) struct FileLockTests {
    @Test func reentrantAndKnownToItsThread() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            let vault = try Vault(root: dir.path)
            #expect(!vault.holdsWriteLock)
            let outer = try vault.lockForWriting()
            let inner = try vault.lockForWriting()
            #expect(vault.holdsWriteLock)
            inner.release()
            #expect(vault.holdsWriteLock, "the outer hold remains")
            // Another thread does not hold it.
            final class Seen: @unchecked Sendable { var value = true }
            let seen = Seen(), done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                seen.value = vault.holdsWriteLock
                done.signal()
            }
            done.wait()
            #expect(!seen.value)
            outer.release()
            #expect(!vault.holdsWriteLock)
            // The holder's process ID is written for others who wait.
            #expect(try dir.text(".quire/lock").trimmingCharacters(in: .whitespacesAndNewlines) == String(getpid()))
        }
    }

    @Test func anotherProcessWaitsUntilItIsReleased() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            let vault = try Vault(root: dir.path)
            let token = try vault.lockForWriting()
            // flock(1) from util-linux on the same file: refused while held, granted once released.
            let busy = ChildProcess.run(["flock", "-n", dir.full(".quire/lock"), "true"])
            #expect(busy.status != 0)
            token.release()
            let free = ChildProcess.run(["flock", "-n", dir.full(".quire/lock"), "true"])
            #expect(free.status == 0)
        }
    }

    @Test func aLinkInPlaceOfTheLockIsRefused() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            try dir.write("elsewhere", "")
            try dir.link(".quire/lock", to: dir.full("elsewhere"))
            let vault = try Vault(root: dir.path)
            #expect(throws: FileIOError.self) { try vault.lockForWriting() }
        }
    }
}
