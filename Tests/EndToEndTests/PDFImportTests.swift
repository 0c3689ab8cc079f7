import Foundation
import Testing
import QuireTestSupport

/// `quire import pdf` on PDFs made here with fpdf2 (a Python PDF library, from PyPI): headings,
/// page anchors, running lines left out, a page without text listed; `ask` citing the page; a
/// damaged, an encrypted and a dash-named file.
@Suite(.requires(.poppler, .fpdf)) struct PDFImportTests {
    static let makePDF = """
        import sys
        from fpdf import FPDF
        pdf = FPDF()
        pdf.set_auto_page_break(False)
        chapters = [("Cells", "Mitochondria produce most of the chemical energy of the cell, stored in adeno-\\nsine triphosphate."),
                    ("Enzymes", "Enzymes lower the activation energy of a reaction and are not consumed by it."),
                    ("Genetics", "Ribosomes translate messenger RNA into proteins, one codon at a time.")]
        for n, (name, text) in enumerate(chapters, 1):
            pdf.add_page()
            pdf.set_font("Helvetica", size=8); pdf.set_xy(10, 8); pdf.cell(0, 5, "Biology 101 - Lecture Notes")
            pdf.set_xy(10, 30); pdf.set_font("Helvetica", "B", size=20)
            pdf.cell(0, 12, f"Chapter {n}: {name}", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("Helvetica", size=11); pdf.multi_cell(0, 6, text)
            pdf.ln(4); pdf.set_font("Helvetica", "B", size=11); pdf.cell(0, 6, "Key terms", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("Helvetica", size=11)
            for item in ["- first term", "- second term"]: pdf.cell(0, 6, item, new_x="LMARGIN", new_y="NEXT")
            pdf.set_xy(10, 285); pdf.set_font("Helvetica", size=8); pdf.cell(0, 5, f"{n}", align="C")
        pdf.add_page()
        pdf.output(sys.argv[1])
        """

    @Test func importsPagesHeadingsAndCitesThePage() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let pdf = base.appendingPathComponent("lecture.pdf").path
        _ = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.makePDF, pdf])
        let imported = try q.run(["import", "pdf", pdf, "--deck", "Biology::Lectures"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.hasPrefix("wrote Biology/Lectures/Chapter 1 Cells.md (4 pages, 6 headings"), "\(imported)")
        #expect(imported.stderr.contains("1 page without text: 4"), "\(imported)")
        let note = String(decoding: try q.read("Biology/Lectures/Chapter 1 Cells.md"), as: UTF8.self)
        #expect(note.contains("source: lecture.pdf\npages: 4\n---\n\n<!-- page 1 -->\n\n## Chapter 1: Cells\n"), "\(note)")
        #expect(note.contains("stored in adenosine triphosphate."), "\(note)")
        #expect(note.contains("<!-- page 2 -->\n\n## Chapter 2: Enzymes\n") && note.contains("### Key terms\n\n- first term\n- second term\n"))
        #expect(!note.contains("Lecture Notes") && !note.contains("\n3\n"), "\(note)")
        // The imported note is a plain note: checked clean, searched and cited by page.
        #expect(try q.run(["check"]).status == 0)
        let ask = try q.run(["ask", "what", "lowers", "the", "activation", "energy"])
        #expect(ask.stdout.contains("Enzymes lower the activation energy") && ask.stdout.contains("Chapter 1 Cells.md:"), "\(ask)")
        #expect(ask.stdout.contains(", p. 2 — Chapter 2: Enzymes"), "\(ask)")
        let json = try q.run(["search", "ribosomes", "--json"])
        #expect(json.stdout.contains("\"page\": 3"), "\(json)")
        // Again: a new note beside the first, which stays as it was.
        let again = try q.run(["import", "pdf", pdf, "--deck", "Biology::Lectures"])
        #expect(again.stdout.hasPrefix("wrote Biology/Lectures/Chapter 1 Cells 2.md"), "\(again)")
        #expect(String(decoding: try q.read("Biology/Lectures/Chapter 1 Cells.md"), as: UTF8.self) == note)
    }

    @Test func generateProposesCardsFromTheImportedText() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let pdf = base.appendingPathComponent("enzymes.pdf").path
        _ = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys
            from fpdf import FPDF
            pdf = FPDF(); pdf.add_page(); pdf.set_font("Helvetica", "B", size=20); pdf.cell(0, 12, "Enzymes", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("Helvetica", size=11)
            pdf.multi_cell(0, 6, "Enzymes work best at one temperature because heat changes their shape. "
                           "There are three types of enzyme inhibition: competitive, noncompetitive, and uncompetitive.")
            pdf.output(sys.argv[1])
            """, pdf])
        let imported = try q.run(["import", "pdf", pdf, "--generate"])
        #expect(imported.status == 0 && imported.stdout.contains("2 cards generated"), "\(imported)")
        let note = String(decoding: try q.read("Enzymes.md"), as: UTF8.self)
        #expect(note.contains("\n\n<!-- generated from line ") && !note.contains("## Cards") && note.contains("What are the three types of enzyme inhibition? :: Competitive"), "\(note)")
        #expect(try q.run(["check"]).status == 0)
    }

    /// Text that Quire's own syntax would read as a card — a `==highlight==` (a cloze), `::`,
    /// `Q:` — is escaped into plain text, so the PDF imports and reads back as written (a PDF
    /// holding `==word==` was refused, with an empty reason).
    @Test func cardMarkersInThePDFsTextStayText() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let pdf = q.vault.deletingLastPathComponent().appendingPathComponent("markers.pdf").path
        _ = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys
            from fpdf import FPDF
            pdf = FPDF(); pdf.add_page(); pdf.set_font("Helvetica", size=11)
            for line in ["In Obsidian, ==word== marks a highlight.", "A comparison: a === b, and x == y here.",
                         "term :: definition is a card in Quire.", "Q: is this a question?"]:
                pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
            pdf.output(sys.argv[1])
            """, pdf])
        let imported = try q.run(["import", "pdf", pdf, "--to", "Inbox"])
        #expect(imported.status == 0, "\(imported)")
        let note = String(decoding: try q.read("Inbox/markers.md"), as: UTF8.self)
        #expect(note.contains("=\\=word=\\=") && !note.contains("==word=="), "\(note)")
        #expect(try q.run(["list", "path:Inbox/markers.md", "--count"]).stdout.hasPrefix("0"))
        #expect(try q.run(["check"]).status == 0)
    }

    @Test func badFilesWriteNothingAndTheRestIsImported() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        try Data("not a pdf at all".utf8).write(to: base.appendingPathComponent("broken.pdf"))
        _ = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys
            from fpdf import FPDF
            pdf = FPDF(); pdf.add_page(); pdf.set_font("Helvetica", size=12); pdf.cell(0, 10, "secret text")
            pdf.set_encryption(owner_password="o", user_password="u"); pdf.output(sys.argv[1])
            pdf = FPDF(); pdf.add_page(); pdf.set_font("Helvetica", size=12); pdf.cell(0, 10, "A dash-named file about osmosis.")
            pdf.output(sys.argv[2])
            """, base.appendingPathComponent("locked.pdf").path, base.appendingPathComponent("-rf.pdf").path])
        let before = try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted()
        let bad = try q.run(["-C", q.vault.path, "import", "pdf", "broken.pdf", "locked.pdf"], workingDirectory: base)
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stderr.contains("broken.pdf: not a readable PDF") && bad.stderr.contains("locked.pdf: not a readable PDF"), "\(bad)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).sorted() == before)
        // A file whose name starts with a dash is a file, not an option; with a bad one, exit 1.
        let mixed = try q.run(["-C", q.vault.path, "import", "pdf", "--to", "Inbox", "--", "-rf.pdf", "broken.pdf"], workingDirectory: base)
        #expect(mixed.status == 1 && mixed.stdout.contains("wrote Inbox/"), "\(mixed)")
        let found = try q.run(["search", "osmosis"])
        #expect(found.stdout.hasPrefix("1. Inbox/rf.md:10, p. 1\n   A dash-named"), "\(found)")
    }

    /// A scanned page (an image of text in three fonts, made with Pillow) is read by OCR: at least
    /// 95 % of its words come back, and the note says the page was read so.
    @Test(.requires(.tesseract)) func aScannedPageIsReadByOCR() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let words = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys
            from PIL import Image, ImageDraw, ImageFont
            from fpdf import FPDF
            lines = ["Photosynthesis converts light energy into chemical energy",
                     "stored in glucose. Chlorophyll absorbs red and blue light",
                     "and reflects green light, which is why leaves look green.",
                     "The Calvin cycle fixes carbon dioxide into sugars."]
            fonts = ["DejaVuSerif.ttf", "DejaVuSans.ttf", "DejaVuSansMono.ttf", "DejaVuSerif.ttf"]
            img = Image.new("L", (2400, 900), 255)
            d = ImageDraw.Draw(img)
            for i, (l, f) in enumerate(zip(lines, fonts)):
                d.text((100, 100 + i * 170), l, fill=0, font=ImageFont.truetype("/usr/share/fonts/truetype/dejavu/" + f, 52))
            img.save(sys.argv[1] + ".png")
            pdf = FPDF(); pdf.add_page(); pdf.set_font("Helvetica", size=12); pdf.cell(0, 10, "A page with a text layer.")
            pdf.add_page(); pdf.image(sys.argv[1] + ".png", x=10, y=20, w=190)
            pdf.output(sys.argv[1])
            print(" ".join(lines))
            """, base.appendingPathComponent("scan.pdf").path]).stdout
        let expected = words.split(whereSeparator: \.isWhitespace).map { $0.lowercased().filter(\.isLetter) }
        #expect(expected.count == 34)
        let imported = try q.run(["import", "pdf", base.appendingPathComponent("scan.pdf").path, "--to", "Scans"])
        #expect(imported.status == 0 && imported.stdout.contains("1 page read by OCR: 2"), "\(imported)")
        let note = String(decoding: try q.read("Scans/scan.md"), as: UTF8.self)
        #expect(note.contains("<!-- page 2 -->\n\n*Page 2 was read from its image (OCR, mean confidence "), "\(note)")
        // Word accuracy: the expected words found in order (longest common subsequence).
        let page2 = note.components(separatedBy: "<!-- page 2 -->").last ?? ""
        let got = page2.split(whereSeparator: \.isWhitespace).map { $0.lowercased().filter(\.isLetter) }.filter { !$0.isEmpty }
        var table = [[Int]](repeating: [Int](repeating: 0, count: got.count + 1), count: expected.count + 1)
        for i in 0..<expected.count { for j in 0..<got.count {
            table[i + 1][j + 1] = expected[i] == got[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
        } }
        let accuracy = Double(table[expected.count][got.count]) / Double(expected.count)
        #expect(accuracy >= 0.95, "word accuracy \(accuracy): \(page2)")
        // Searchable and cited by page.
        #expect(try q.run(["search", "chlorophyll"]).stdout.contains("Scans/scan.md:"))
        #expect(try q.run(["search", "chlorophyll"]).stdout.contains(", p. 2"))
    }
}

