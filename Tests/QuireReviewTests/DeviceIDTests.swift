@testable import QuireReview
import Foundation
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

@Suite struct DeviceIDTests {
    @Test func madeOnceFromTheGeneratorThenRead() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            var g = SeededGenerator(seed: 7)
            let id = try vault.deviceID(using: &g)
            #expect(id.count == 8 && id.allSatisfy { Base32.alphabet.contains($0) })
            #expect(try dir.text(".quire/device") == id + "\n")
            var other = SeededGenerator(seed: 8)
            #expect(try vault.deviceID(using: &other) == id)
            #expect(try dir.text(".gitignore").contains(".quire/device\n"))
        }
    }

    @Test func aHandWrittenIDIsUsedAndGarbageIsAnError() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            var g = SeededGenerator(seed: 1)
            try dir.write(".quire/device", "laptop-2\r\n")
            #expect(try vault.deviceID(using: &g) == "laptop-2")
            try dir.write(".quire/device", "my laptop/../x\n")
            #expect(throws: ReviewError.self) { try vault.deviceID(using: &g) }
        }
    }
}
