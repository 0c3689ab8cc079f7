import QuireTerminal
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
        @Option(help: ArgumentHelp("The deck (A::B or A/B): its folder holds the note (with --to, the note names it).", valueName: "DECK"), completion: .custom(QueryCompletion.decks)) var deck: String?
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
            let destination = ImportedFiles.Destination(to: to, deck: deck)
            var failed = 0
            for file in files {
                do {
                    var reading: ProgressBar?
                    let ocrBar = Mutex<ProgressBar?>(nil)
                    var progress = PDFImport.Progress()
                    progress.reading = { done, pages in
                        if reading == nil { reading = ProgressBar("Reading \(file)", total: pages, minimum: 40) }
                        reading?.update(done)
                    }
                    progress.recognizing = { done, pages in
                        ocrBar.withLock { bar in
                            if bar == nil { bar = ProgressBar("OCR of \(file)", total: pages, minimum: 2) }
                            bar?.update(done)
                        }
                    }
                    progress.warning = { Output.error("quire: warning: " + $0) }
                    let imported = try PDFImport.read(file, into: destination, vault: vault, title: title, ocr: noOCR ? .never : ocr,
                                                      generate: generate, now: options.now, progress: progress)
                    try ImportCommand.write([.note(imported.plan.path, imported.bytes)], to: vault)
                    Self.report(imported, file: file, generated: generate)
                } catch {
                    Output.error("quire: error: \(error); nothing written for it")
                    failed += 1
                }
            }
            Output.flush()
            if failed > 0 { throw ExitCode(1) }
        }

        /// What was written: pages, headings, cards, running lines left out; the pages read by OCR
        /// and those without text.
        static func report(_ imported: PDFImport, file: String, generated: Bool) {
            let result = imported.result
            var line = "wrote \(imported.plan.path) (\(Plural.counted(imported.pages, "page")), \(Plural.counted(result.headings, "heading"))"
            if generated { line += ", \(Plural.counted(imported.generatedCards, "card")) generated" }
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
        }
    }
}

extension PDFExtractor.OCRMode: ExpressibleByArgument {}
