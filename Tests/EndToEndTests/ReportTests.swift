import Foundation
import Testing
import QuireTestSupport

/// `quire report` through the real binary on SampleVault, rendered by a real headless browser.
@Suite struct ReportTests {
    let now = ["--now", QuireRunner.now]

    /// Debian's chromium, which `make test` installs.
    static let chromium: URL? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// A screenshot of the page in headless chromium, described by Tools/png-census.py.
    static func render(_ page: URL, dark: Bool, in folder: URL) throws -> [String: Any] {
        let chromium = try #require(Self.chromium, "chromium is not installed (make test installs it)")
        let png = folder.appendingPathComponent(dark ? "dark.png" : "light.png")
        let profile = folder.appendingPathComponent("profile-\(dark)")
        let args = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile.path)",
                    "--window-size=900,2000", "--screenshot=\(png.path)"] + (dark ? ["--force-dark-mode"] : []) + [page.absoluteString]
        _ = try QuireRunner.execute(chromium, args)
        #expect(FileManager.default.fileExists(atPath: png.path), "chromium wrote no screenshot")
        let census = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Tools/png-census.py")
        let result = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", census.path, png.path])
        #expect(result.status == 0)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test(.requires(.chromium)) func reportRendersInABrowser() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let folder = q.vault.deletingLastPathComponent()
        let page = folder.appendingPathComponent("report.html")
        let written = try q.run(["report", "--out", page.path] + now)
        #expect(written.status == 0 && written.stdout.hasPrefix("Report written to "), "\(written)")
        let html = try String(contentsOf: page, encoding: .utf8)
        // The dashboard's numbers.
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(try q.run(["stats", "--json"] + now).stdout.utf8)) as? [String: Any])
        let reviews = try #require(stats["reviews"] as? Int)
        #expect(html.contains("<div class=\"value\">\(reviews)</div><div class=\"name\">Reviews</div>"))
        let total = try #require((stats["cards"] as? [String: Any])?["total"] as? Int)
        #expect(html.contains("<div class=\"value\">\(total)</div><div class=\"name\">Cards</div>"))
        #expect(!html.contains("<script") && html.contains("<svg"))

        // Rendered for real, in both colour schemes: the requested size, charts drawn (many
        // colours, a fair share of ink), a white page in light and a dark one in dark.
        let light = try Self.render(page, dark: false, in: folder)
        let dark = try Self.render(page, dark: true, in: folder)
        for shot in [light, dark] {
            #expect(shot["width"] as? Int == 900 && shot["height"] as? Int == 2000, "\(shot)")
            #expect((shot["colors"] as? Int ?? 0) > 50, "\(shot)")
            #expect((shot["ink"] as? Double ?? 0) > 0.05, "\(shot)")
        }
        #expect(light["background"] as? [Int] == [255, 255, 255], "\(light)")
        #expect((dark["background"] as? [Int] ?? [255]).allSatisfy { $0 < 40 }, "\(dark)")

        // To standard output on a pipe; refused on an unknown option; a symbolic link not followed.
        let piped = try q.run(["report", "deck:Biology"] + now)
        #expect(piped.status == 0 && piped.stdout.hasPrefix("<!DOCTYPE html>") && piped.stdout.contains("deck:Biology"))
        #expect(try q.run(["report", "--bogus"] + now).status != 0)
        let link = folder.appendingPathComponent("link.html")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder.appendingPathComponent("elsewhere.html"))
        let refused = try q.run(["report", "--out", link.path] + now)
        #expect(refused.status != 0 && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("elsewhere.html").path))
        // A folder, or a folder that does not exist: a clear error, nothing written.
        let folderRefused = try q.run(["report", "--out", folder.path] + now)
        #expect(folderRefused.status == 1 && folderRefused.stderr.contains("is a folder") && folderRefused.stderr.contains("no report written"))
        let missing = try q.run(["report", "--out", folder.appendingPathComponent("no/such/report.html").path] + now)
        #expect(missing.status == 1 && missing.stderr.hasPrefix("quire: error: "))
        // Replaced atomically when it exists.
        let again = try q.run(["report", "--out", page.path, "--since", "2026-11-20"] + now)
        let replaced = try String(contentsOf: page, encoding: .utf8)
        #expect(again.status == 0 && replaced != html)
    }
}
