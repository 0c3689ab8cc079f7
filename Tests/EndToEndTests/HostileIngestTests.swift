import Foundation
import Testing
import QuireTestSupport

/// Files crafted to make the helper programs of `quire import` spend without bound: each ends
/// at a stated limit with a message naming the file and the limit, in bounded time, and writes
/// nothing it should not (docs/SECURITY.md, "Helper programs").
@Suite(.requires(.poppler)) struct HostileIngestTests {
    /// Writes a PDF of the given objects (as PDF source), the first the catalogue.
    static let writePDF = """
        import sys, zlib
        def pdf(objs):
            out = b"%PDF-1.4\\n"; offs = []
            for i, o in enumerate(objs, 1):
                offs.append(len(out)); out += b"%d 0 obj\\n" % i + o + b"\\nendobj\\n"
            x = len(out)
            out += b"xref\\n0 %d\\n0000000000 65535 f \\n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \\n" % o for o in offs)
            out += b"trailer\\n<< /Size %d /Root 1 0 R >>\\nstartxref\\n%d\\n%%%%EOF\\n" % (len(objs) + 1, x)
            return out
        def pages(n, page):
            kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(n))
            return [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n)] + [page] * n
        kind, path = sys.argv[1], sys.argv[2]
        if kind == "bomb":
            # 128 MB of text drawing, deflated to about 400 KB.
            body = b"BT /F1 12 Tf 72 700 Td (aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa) Tj ET\\n" * 2000000
            z = zlib.compress(body, 9)
            objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
                    b"<< /Length %d /Filter /FlateDecode >>\\nstream\\n" % len(z) + z + b"\\nendstream",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
        elif kind == "blank":
            objs = pages(int(sys.argv[3]), b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
        elif kind == "huge-page":
            LINES = b"200 w 0 0 m 7200 7200 l 0 7200 m 7200 0 l S"
            # A page of 100 by 100 inches with lines drawn on it: 900 million pixels at 300 dpi.
            objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 7200 7200] /Contents 4 0 R >>",
                    b"<< /Length %d >>\\nstream\\n%s\\nendstream" % (len(LINES), LINES)]
        open(path, "wb").write(pdf(objs))
        """

    static func make(_ kind: String, _ path: String, _ more: [String] = []) throws {
        _ = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", writePDF, kind, path] + more)
    }

    @Test func aCompressionBombEndsAtItsMemoryLimit() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let pdf = q.vault.deletingLastPathComponent().appendingPathComponent("bomb.pdf").path
        try Self.make("bomb", pdf)
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        let start = Date()
        let run = try q.run(["import", "pdf", pdf])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("bomb.pdf: pages 1–1 could not be read (pdftohtml: stopped at its limit of ")
                && run.stderr.contains(" MB of memory)"), "\(run)")
        #expect(Date().timeIntervalSince(start) < 60)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
    }

    @Test func blankPagesAreRenderedSmallNotReadByOCR() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let pdf = q.vault.deletingLastPathComponent().appendingPathComponent("blank.pdf").path
        try Self.make("blank", pdf, ["200"])
        let run = try q.run(["import", "pdf", pdf, "--to", "Inbox"])
        #expect(run.status == 0 && !run.stdout.contains("read by OCR"), "\(run)")
        #expect(run.stderr.contains("200 pages without text: 1, 2, 3"), "\(run)")
    }

    /// A FIFO, a folder or a device named as the file to import is refused at once: a helper
    /// program would wait on a FIFO until its clock ran out (pdfinfo did, 120 s).
    @Test func onlyRegularFilesReachAHelper() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let fifo = q.vault.deletingLastPathComponent().appendingPathComponent("pipe.pdf").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let start = Date()
        let folder = q.vault.deletingLastPathComponent().appendingPathComponent("folder.pdf").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (kind, path) in [("pdf", fifo), ("pdf", "/dev/zero"), ("pdf", folder), ("audio", fifo)] {
            let run = try q.run(["import", kind, path])
            #expect(run.status == 1 && run.stderr.contains("\(path): not a regular file (a FIFO, a device or a folder); not read"), "\(run)")
        }
        #expect(Date().timeIntervalSince(start) < 30)
        // An image is read by Quire first, which refuses it the same way, naming it once.
        let image = try q.run(["import", "image", fifo])
        #expect(image.status == 1 && image.stderr.contains("quire: error: \(fifo): is a FIFO, not a regular file; not read; nothing written"), "\(image)")
    }

    @Test func tooManyPagesAreRefusedBeforeAnyWork() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let pdf = q.vault.deletingLastPathComponent().appendingPathComponent("long.pdf").path
        try Self.make("blank", pdf, ["10001"])
        let start = Date()
        let run = try q.run(["import", "pdf", pdf])
        #expect(run.status == 1 && run.stderr.contains("long.pdf: the PDF declares 10001 pages, more than the 10000 Quire imports"), "\(run)")
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test(.requires(.tesseract)) func aGiantPageIsLeftWithoutTextAtItsLimit() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let pdf = q.vault.deletingLastPathComponent().appendingPathComponent("huge.pdf").path
        try Self.make("huge-page", pdf)
        let run = try q.run(["import", "pdf", pdf, "--to", "Inbox"])
        #expect(run.status == 0 && run.stderr.contains("huge.pdf: page 1 could not be rendered (pdftoppm: stopped at its limit of 192 MB of memory); such pages are left without text"), "\(run)")
        #expect(!run.stderr.contains("huge.pdf: /"), "\(run)")
    }

    /// A helper program dies with Quire: `quire import image` killed with SIGKILL while ImageMagick
    /// or tesseract reads a large noisy image (seconds of work) leaves neither behind.
    @Test(.requires(.tesseract, .imageMagick)) func aHelperDiesWithQuire() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let png = q.vault.deletingLastPathComponent().appendingPathComponent("noise.png").path
        _ = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["convert", "-size", "5000x5000", "xc:", "+noise", "Random",
                                                                           "-colorspace", "Gray", png])
        let quire = Process()
        quire.executableURL = QuireRunner.executable
        quire.arguments = ["-C", q.vault.path, "import", "image", png]
        quire.standardOutput = FileHandle.nullDevice
        quire.standardError = FileHandle.nullDevice
        try quire.run()
        // Its children, as /proc lists them: wait for a helper to be running.
        func children() -> [Int32] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return tasks.compactMap(Int32.init).filter { pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return false }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 1 && Int32(fields[1]) == quire.processIdentifier
            }
        }
        func running(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
        }
        // A helper seen running for half a second (the launcher has become the program); one
        // that ends sooner on a fast machine is passed over for the next (deskew, three
        // variants, four readings: seconds of work in all).
        var seen: [Int32: Date] = [:]
        var helpers: [Int32] = []
        let start = Date()
        while helpers.isEmpty, Date().timeIntervalSince(start) < 60, quire.isRunning {
            for pid in children() where running(pid) && seen[pid] == nil { seen[pid] = Date() }
            helpers = seen.filter { pid, since in Date().timeIntervalSince(since) >= 0.5 && running(pid) }.map(\.key)
            if helpers.isEmpty { usleep(20_000) }
        }
        #expect(!helpers.isEmpty, "no helper ran for half a second")
        kill(quire.processIdentifier, SIGKILL)
        // A helper on this image runs for seconds; the kernel ends it at once when its parent dies.
        usleep(300_000)
        for pid in helpers { #expect(!running(pid), "helper \(pid) outlived quire") }
        quire.waitUntilExit()
    }

    /// A PNG whose header declares 100,000 × 100,000 pixels (and holds a few bytes): refused from
    /// its header, before ImageMagick or tesseract decode anything.
    @Test(.requires(.tesseract)) func anImageDeclaringBillionsOfPixelsIsRefusedFromItsHeader() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let png = q.vault.deletingLastPathComponent().appendingPathComponent("vast.png")
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [100_000, 100_000] { bytes += [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        bytes += [8, 0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        try Data(bytes).write(to: png)
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        let run = try q.run(["import", "image", png.path])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("vast.png: the image declares 100000 × 100000 pixels, more than the 100 million pixels Quire reads"), "\(run)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
    }

    /// An image of many frames (an animated GIF, a multi-page TIFF) is refused from its header,
    /// before ImageMagick decodes every frame (a 500-frame GIF left 539 MB of its temporary
    /// files).
    @Test(.requires(.tesseract, .imageMagick)) func anImageOfManyFramesIsRefusedBeforeAnyWork() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let gif = q.vault.deletingLastPathComponent().appendingPathComponent("frames.gif")
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["convert", "-size", "64x64", "xc:white", "xc:black", "xc:gray",
                                                                                  "-loop", "0", gif.path])
        #expect(made.status == 0, "\(made)")
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        let run = try q.run(["import", "image", gif.path])
        #expect(run.status == 1 && run.stderr.contains("frames.gif: the image holds 3 frames or pages"), "\(run)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
    }

    /// ImageMagick's and tesseract's own temporary files go into the import's scratch folder,
    /// which is removed (a killed ImageMagick left its `magick-*` files in $TMPDIR); a scratch
    /// folder that a killed run left behind is removed by the next run; nothing is left.
    @Test(.requires(.tesseract, .imageMagick)) func helpersTemporaryFilesLiveInAFolderQuireRemoves() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let tmp = base.appendingPathComponent("tmp")
        let bin = base.appendingPathComponent("bin")
        for folder in [tmp, bin] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // A `convert` that notes where ImageMagick was told to keep its temporary files.
        let real = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["sh", "-c", "command -v convert"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try "#!/bin/sh\necho \"$MAGICK_TMPDIR\" >> \"\(base.path)/magick-dirs\"\nexec \(real) \"$@\"\n"
            .write(to: bin.appendingPathComponent("convert"), atomically: true, encoding: .utf8)
        #expect(chmod(bin.appendingPathComponent("convert").path, 0o755) == 0)
        // A run killed earlier left its folder (its process, 4,194,304, is past any running one).
        let left = tmp.appendingPathComponent("quire-image-4194304-killed")
        try FileManager.default.createDirectory(at: left, withIntermediateDirectories: true)
        try Data(count: 1000).write(to: left.appendingPathComponent("magick-leftover"))
        let png = base.appendingPathComponent("slide.png")
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["convert", "-size", "400x120", "xc:white", "-pointsize", "28",
                                                                                  "-annotate", "+20+70", "Mitochondria make ATP", png.path])
        #expect(made.status == 0, "\(made)")
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try q.run(["import", "image", png.path], environment: ["TMPDIR": tmp.path, "PATH": path])
        #expect(run.status == 0, "\(run)")
        let dirs = (try? String(contentsOf: base.appendingPathComponent("magick-dirs"), encoding: .utf8)) ?? ""
        let named = dirs.split(separator: "\n").map(String.init)
        #expect(!named.isEmpty && named.allSatisfy { $0.hasPrefix(tmp.path + "/quire-image-") }, "\(dirs)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [], "left in TMPDIR")
    }
}
