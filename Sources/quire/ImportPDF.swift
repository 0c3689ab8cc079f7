import QuireIngest
import QuireApp
import Foundation
import Synchronization
import QuireSupport
import ArgumentParser
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem

extension Quire {
    /// `quire import pdf FILE… [--deck D] [--to FOLDER] [--title T]`.
    struct ImportPDF: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pdf",
            abstract: "Make a note of each PDF's text, page by page, with page anchors search and ask cite.",
            discussion: """
                The text is read with poppler's tools (Debian: poppler-utils), some pages at a time: headings \
                from font size and weight, paragraphs re-flowed with hyphenation undone, list items kept, \
                running headers, footers and page numbers left out, each page opened by <!-- page N --> \
                (FORMAT.md §8). Pages without text (scans), and pages that show more than their text layer \
                holds (slides whose words are drawn as shapes), are read by OCR too (tesseract), the text layer's \
                own characters kept wherever it has the text (--ocr always|never to choose). The note goes into --to FOLDER, else the deck's folder, else the vault's \
                top; a note already there is never replaced (importing a changed PDF again writes a new \
                note beside it, so the cards added to the old one stay). Pages left without text are \
                listed. An encrypted or damaged PDF is an error and nothing is written for it; the other \
                files are imported and the exit status is 1.

                Example: quire import pdf chapter3.pdf --deck Biology
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: ArgumentHelp("The deck (A::B or A/B): its folder holds the note.", valueName: "DECK"), completion: .custom(QueryCompletion.decks)) var deck: String?
        @Option(help: ArgumentHelp("The folder of the vault to write the note in.", valueName: "FOLDER")) var to: String?
        @Option(help: ArgumentHelp("The note's title (default: the PDF's own, else its file name).", valueName: "TITLE")) var title: String?
        @Option(help: ArgumentHelp("Which pages to read by OCR: auto (pages without text, and pages that show more than their text layer holds: slides whose words are drawn as shapes), always, never.", valueName: "WHEN"))
        var ocr: PDFExtractor.OCRMode = .auto
        @Flag(help: .hidden) var noOCR = false
        @Flag(help: "Also propose cards from the text, written under ## Cards (as quire generate --write).") var generate = false
        @Argument(help: "The PDF files.") var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("give a PDF file") }
            if title != nil, files.count > 1 { throw ValidationError("--title names one note: give one file") }
        }

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            let folder = ImportedFiles.folder(to: to, deck: deck)
            var failed = 0
            for file in files {
                do {
                    let info = try PDFExtractor.info(file)
                    var pages: [PDFLayout.Page] = []
                    var bar = ProgressBar("Reading \(file)", total: info.pages, minimum: 40)
                    var first = 1
                    while first <= info.pages {
                        let last = min(info.pages, first + PDFExtractor.pagesPerRun - 1)
                        pages += try PDFExtractor.layout(file, pages: first...last).pages
                        bar.update(last)
                        first = last + 1
                    }
                    let layout = PDFLayout(pages: pages)
                    let read = Self.ocr(try Self.pagesForOCR(file, layout: layout, mode: noOCR ? .never : ocr), of: file)
                    let result = PDFMarkdown.convert(layout, ocr: read)
                    let name = String(file.split(separator: "/").last ?? Substring(file))
                    let base = name.lowercased().hasSuffix(".pdf") ? String(name.dropLast(4)) : name
                    let noteTitle = title ?? info.title.flatMap { $0.isEmpty ? nil : $0 } ?? result.firstHeading ?? base
                    let plan: NoteCreation
                    do {
                        plan = try NoteCreation.plan("# " + noteTitle + "\n" + result.body, fields: [("source", name), ("pages", String(info.pages))],
                                                     tags: [], folder: folder, vault: vault, created: options.now)
                    } catch { throw CLIError("\(file): \(error)") }
                    if let problem = ImportedFiles.plainNoteProblem(plan) {
                        throw CLIError("\(file): the converted text would not read back as a plain note: \(problem)")
                    }
                    let (bytes, cards) = generate ? ImportedFiles.withGeneratedCards(path: plan.path, bytes: plan.bytes) : (plan.bytes, 0)
                    try ImportCommand.write([.note(plan.path, bytes)], to: vault)
                    var line = "wrote \(plan.path) (\(Plural.counted(info.pages, "page")), \(Plural.counted(result.headings, "heading"))"
                    if generate { line += ", \(Plural.counted(cards, "card")) generated" }
                    if result.removedLines > 0 { line += ", \(Plural.counted(result.removedLines, "running line")) left out" }
                    Output.line(line + ")")
                    if !result.ocrPages.isEmpty {
                        Output.line("  \(Plural.counted(result.ocrPages.count, "page")) read by OCR: "
                                    + result.ocrPages.prefix(20).map(String.init).joined(separator: ", ") + (result.ocrPages.count > 20 ? ", …" : ""))
                    }
                    if !result.emptyPages.isEmpty {
                        Output.error("quire: warning: \(file): \(Plural.counted(result.emptyPages.count, "page")) without text: "
                                     + result.emptyPages.prefix(20).map(String.init).joined(separator: ", ")
                                     + (result.emptyPages.count > 20 ? ", …" : "") + "; their text is not in the note")
                    }
                } catch let error as PDFExtractor.Failure {
                    Output.error("quire: error: \(error.description); nothing written for it")
                    failed += 1
                } catch let error as CLIError {
                    Output.error("quire: error: \(error.description); nothing written for it")
                    failed += 1
                }
            }
            Output.flush()
            if failed > 0 { throw ExitCode(1) }
        }

        /// The pages `mode` has read by OCR (auto: each page with little text rendered small in a
        /// temporary folder, its ink compared with its text layer).
        static func pagesForOCR(_ file: String, layout: PDFLayout, mode: PDFExtractor.OCRMode) throws -> [Int] {
            guard mode == .auto else { return PDFExtractor.pagesForOCR(file, layout: layout, mode: mode, folder: "") }
            let scratch = try ScratchFolder("quire-ink")
            defer { scratch.remove() }
            return PDFExtractor.pagesForOCR(file, layout: layout, mode: mode, folder: scratch.path)
        }

        /// The text of `pages` read by OCR from their images, rendered in a
        /// temporary folder; a page that cannot be read is said and left out.
        static func ocr(_ pages: [Int], of file: String) -> [Int: OCRText] {
            guard !pages.isEmpty else { return [:] }
            guard let scratch = try? ScratchFolder("quire-ocr") else { return [:] }
            defer { scratch.remove() }
            // Pages side by side, one per core, each rendered into a folder of its own.
            let results = ResultSlots<Result<OCRText, OCRText.Failure>>(count: pages.count)
            let done = AtomicCounter()
            let bar = Mutex(ProgressBar("OCR of \(file)", total: pages.count, minimum: 2))
            inParallelChunks(of: pages.count, chunk: 1, concurrency: nil) { range in
                for k in range {
                    let own = scratch.path + "/\(k)"
                    do {
                        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: false)
                        results[k] = .success(try OCRText.recognize(try PDFExtractor.render(file, page: pages[k], into: own)))
                    } catch let error as OCRText.Failure {
                        results[k] = .failure(error)
                        // Without tesseract no page can be read: no other is started.
                        if error.description == OCRText.missing { return false }
                    } catch {
                        results[k] = .failure(OCRText.Failure(description: "\(error)"))
                    }
                    try? FileManager.default.removeItem(atPath: own)
                    let finished = done.increment() + 1
                    bar.withLock { $0.update(finished) }
                }
                return true
            }
            var out: [Int: OCRText] = [:]
            var said = false
            for (k, page) in pages.enumerated() {
                switch results.take(k) {
                case .success(let text)?: out[page] = text
                case .failure(let error)?:
                    if !said { Output.error("quire: warning: \(file): \(error.description); such pages are left without text") }
                    said = true
                case nil: break
                }
            }
            return out
        }
    }
}

extension PDFExtractor.OCRMode: ExpressibleByArgument {}
