import Foundation
import Testing
import QuireSystem
@testable import QuireServer
@testable import QuireTestSupport
import QuireVault

/// What `/file/…` serves: a note's media inside the vault, nothing else.
@Suite struct VaultFilesTests {
    @Test func onlyMediaInsideTheVault() throws {
        try withTempDir { dir in
            try dir.write("vault/img/a b.png", "PNG")
            try dir.write("vault/notes/n.md", "# note")
            try dir.write("vault/.quire/secret.png", "hidden")
            try dir.write("outside.png", "outside")
            try dir.link("vault/img/out.png", to: dir.full("outside.png"))
            try dir.link("vault/linked", to: dir.path)
            #expect(mkfifo(dir.full("vault/img/pipe.png"), 0o644) == 0)
            let vault = try Vault(root: dir.full("vault"))
            let served = VaultFiles.read(urlPath: "/file/img/a%20b.png", vault: vault)
            #expect(served?.bytes == Array("PNG".utf8) && served?.type == "image/png")
            for path in ["/file/img/../img/a%20b.png", "/file/../outside.png", "/file/%2e%2e/outside.png", "/file/img%2f..%2f..%2foutside.png",
                         "/file/%252e%252e/outside.png", "/file//etc/passwd", "/file/.quire/secret.png", "/file/notes/n.md",
                         "/file/img/out.png", "/file/linked/outside.png", "/file/img/pipe.png", "/file/img/a%00.png", "/file/",
                         "/other/img/a%20b.png", "/file/img/a b.png|x.png"] {
                #expect(VaultFiles.read(urlPath: path, vault: vault) == nil, "\(path)")
            }
        }
    }

    @Test func encodedPathsRoundTrip() {
        #expect(VaultFiles.encode("img/cell one#1?.png") == "img/cell%20one%231%3F.png")
        #expect(VaultFiles.encode("über/ß.png") == "%C3%BCber/%C3%9F.png")
    }
}
