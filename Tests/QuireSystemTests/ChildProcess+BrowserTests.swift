import Foundation
import Testing
@testable import QuireSystem
@testable import QuireTestSupport

/// `quire serve --open` hands the address (with its token) to the browser through a page only the
/// user can read: created mode 0600 in a folder of its own of mode 0700 (before, it was written
/// world-readable and made private after, and another user read the token in 5 of 5 runs), and
/// removed once the browser has read it.
@Suite struct ChildProcessBrowserTests {
    @Test func thePageIsPrivateFromItsCreationAndRemoved() throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        // The "browser": writes down the page's and its folder's modes and the page's text.
        try dir.write("opener.sh", "#!/bin/sh\nstat -c '%a' \"$1\" \"$(dirname \"$1\")\" > \"\(dir.path)/seen\"\ncat \"$1\" >> \"\(dir.path)/seen\"\n")
        #expect(chmod(dir.full("opener.sh"), 0o755) == 0)
        try FileManager.default.createDirectory(atPath: dir.full("runtime"), withIntermediateDirectories: true)
        let url = "http://127.0.0.1:8427/#token=0123456789abcdef0123456789abcdef"
        #expect(ChildProcess.openInBrowser(url, environment: ["XDG_RUNTIME_DIR": dir.full("runtime")], opener: [dir.full("opener.sh")],
                                           keepSeconds: 0.2))
        var seen = ""
        for _ in 0..<100 where !seen.contains("</title>") {
            Thread.sleep(forTimeInterval: 0.05)
            seen = (try? dir.text("seen")) ?? ""
        }
        let lines = seen.split(separator: "\n")
        #expect(lines.count >= 3 && lines[0] == "600" && lines[1] == "700", "\(seen)")
        #expect(seen.contains("url=\(url)"))
        // Gone a moment after the browser read it, folder and all.
        for _ in 0..<100 where !((try? FileManager.default.contentsOfDirectory(atPath: dir.full("runtime")))?.isEmpty ?? false) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir.full("runtime"))).isEmpty)
    }
}
