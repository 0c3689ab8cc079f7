import Foundation
import Testing
import QuireTestSupport

/// `quire import image` on a whiteboard photo simulated here (text drawn with Pillow, turned 4°,
/// shrunk and saved as a low-quality JPEG) and a clean slide: the images kept in assets/, at least
/// 95 % of the words read back, a bad file writing nothing.
@Suite(.requires(.tesseract)) struct ImageImportTests {
    static let make = """
        import sys
        from PIL import Image, ImageDraw, ImageFont
        lines = ["Mitosis has four phases: prophase, metaphase,", "anaphase and telophase. The spindle pulls the",
                 "sister chromatids to opposite poles of the cell."]
        img = Image.new("L", (1400, 500), 255); d = ImageDraw.Draw(img)
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 34)
        for i, l in enumerate(lines): d.text((60, 60 + i * 60), l, fill=30, font=font)
        img.rotate(4, expand=True, fillcolor=255).resize((700, 260)).save(sys.argv[1] + "/board.jpg", quality=70)
        slide = Image.new("L", (1600, 400), 255); d = ImageDraw.Draw(slide)
        d.text((80, 80), "Meiosis halves the number of chromosomes.", fill=0,
               font=ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 48))
        slide.save(sys.argv[1] + "/slide 1.png")
        print(" ".join(lines))
        """

    static func accuracy(_ expected: [String], _ got: [String]) -> Double {
        var table = [[Int]](repeating: [Int](repeating: 0, count: got.count + 1), count: expected.count + 1)
        for i in 0..<expected.count { for j in 0..<got.count {
            table[i + 1][j + 1] = expected[i] == got[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
        } }
        return Double(table[expected.count][got.count]) / Double(max(1, expected.count))
    }

    @Test func photosAndSlidesBecomeOneNote() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let words = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.make, base.path]).stdout
        let imported = try q.run(["import", "image", base.appendingPathComponent("board.jpg").path,
                                  base.appendingPathComponent("slide 1.png").path, "--title", "Cell division", "--deck", "Biology"])
        #expect(imported.status == 0 && imported.stdout.contains("wrote Biology/Cell division.md (2 images"), "\(imported)")
        let note = String(decoding: try q.read("Biology/Cell division.md"), as: UTF8.self)
        #expect(note.contains("## board.jpg\n\n![board.jpg](<assets/board.jpg>)\n\n*Read by OCR (mean confidence "), "\(note)")
        #expect(note.contains("## slide 1.png\n\n![slide 1.png](<assets/slide 1.png>)"), "\(note)")
        #expect(try q.read("assets/board.jpg") == (try Data(contentsOf: base.appendingPathComponent("board.jpg"))))
        let section = note.components(separatedBy: "## slide 1.png").first ?? ""
        let expected = words.split(whereSeparator: \.isWhitespace).map { $0.lowercased().filter(\.isLetter) }
        let got = section.split(whereSeparator: \.isWhitespace).map { $0.lowercased().filter(\.isLetter) }.filter { !$0.isEmpty }
        #expect(Self.accuracy(expected, got) >= 0.95, "\(section)")
        #expect(note.contains("Meiosis halves the number of chromosomes."), "\(note)")
        #expect(try q.run(["check"]).status == 0)
        // The share of what looks like text that was read is said.
        #expect(imported.stdout.contains("board.jpg: ") && imported.stdout.contains("% of what looks like text read, mean confidence"), "\(imported)")
        #expect(note.contains("% of what looks like text read)"), "\(note)")
        // A file that is no image: an error, nothing written.
        try Data("not an image".utf8).write(to: base.appendingPathComponent("fake.png"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        let bad = try q.run(["import", "image", base.appendingPathComponent("slide 1.png").path, base.appendingPathComponent("fake.png").path])
        #expect(bad.status != 0 && bad.stderr.contains("nothing written"), "\(bad)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
    }

    /// A harsh photo (blurred, tilted, half in shadow): the import keeps the best reading — never
    /// fewer of its words than tesseract reads from the photo as it is — and says that most of
    /// what looks like text was not read.
    @Test func aHarshPhotoIsReadAsWellAsItCanBeAndSaysWhatItMissed() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys
            from PIL import Image, ImageDraw, ImageFont, ImageFilter
            lines = ["Mitosis has four phases: prophase, metaphase,", "anaphase and telophase. The spindle pulls the",
                     "sister chromatids to opposite poles of the cell."]
            img = Image.new("L", (1400, 500), 255); d = ImageDraw.Draw(img)
            font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 34)
            for i, l in enumerate(lines): d.text((60, 60 + i * 60), l, fill=30, font=font)
            h = img.rotate(7, expand=True, fillcolor=255).filter(ImageFilter.GaussianBlur(3)).resize((600, 240))
            px = h.load()
            for x in range(h.width // 2, h.width):
                for y in range(h.height): px[x, y] = int(px[x, y] * 0.35)
            h.save(sys.argv[1], quality=40)
            print(" ".join(lines))
            """, base.appendingPathComponent("harsh.jpg").path])
        #expect(made.status == 0, "\(made)")
        let imported = try q.run(["import", "image", base.appendingPathComponent("harsh.jpg").path, "--title", "Harsh"])
        #expect(imported.status == 0 && imported.stderr.contains("quire: warning: ") && imported.stderr.contains("of what looks like text in it was read"),
                "\(imported)")
        let truth = base.appendingPathComponent("truth.txt"), raw = base.appendingPathComponent("raw.txt")
        try Data(made.stdout.utf8).write(to: truth)
        let byHand = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["tesseract", base.appendingPathComponent("harsh.jpg").path, "-", "-l", "eng"])
        try Data(byHand.stdout.utf8).write(to: raw)
        let r = try RealMaterialTests.recall(truth.path, [q.vault.appendingPathComponent("Harsh.md").path, raw.path])
        print("harsh photo: quire \(r[0]), tesseract as it is \(r[1])")
        #expect(r.count == 2 && r[0] >= r[1], "\(r)")
    }
}
