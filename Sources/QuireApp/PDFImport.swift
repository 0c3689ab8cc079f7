import Foundation
import QuireIngest
import QuireModel
import QuireReview
import QuireSupport
import QuireVault
import Synchronization

/// A PDF read into a new note (`quire import pdf`), for any front end: its pages' text layer read
/// by poppler in runs of pages, the pages that show more than that layer read by OCR side by side,
/// the Markdown made, the note planned and checked to read back as text. Nothing is written here.
public struct PDFImport {
    /// The note planned.
    public let plan: NoteCreation
    /// The note's bytes (with `--generate`, with its proposed cards) and how many cards were added.
    public let bytes: [UInt8], generatedCards: Int
    /// The document's pages, and what the conversion found (headings, running lines left out,
    /// pages read by OCR, pages without text).
    public let pages: Int
    public let result: PDFMarkdown.Result

    /// What the import says as it goes: its progress and its warnings.
    public struct Progress {
        /// Pages read of the whole (the text layer).
        public var reading: (Int, Int) -> Void = { _, _ in }
        /// Pages read by OCR of those to read; called from several threads.
        public var recognizing: @Sendable (Int, Int) -> Void = { _, _ in }
        /// A warning about the file (OCR failed for some pages).
        public var warning: (String) -> Void = { _ in }
        public init() {}
    }

    /// Reads `file` into a note at `destination` in `vault`, created at `now`, titled `title` (else the
    /// document's title, its first heading or its file name); OCR as `ocr` says; with `generate`,
    /// cards proposed from its text. A file poppler cannot read, or a note that would not read back
    /// as text, is thrown.
    public static func read(_ file: String, into destination: ImportedFiles.Destination, vault: Vault, title: String?, ocr: PDFExtractor.OCRMode,
                            generate: Bool, now: Timestamp, progress: Progress = Progress()) throws(AppError) -> PDFImport {
        do {
            let info = try PDFExtractor.info(file)
            var pages: [PDFLayout.Page] = []
            var first = 1
            while first <= info.pages {
                let last = min(info.pages, first + PDFExtractor.pagesPerRun - 1)
                pages += try PDFExtractor.layout(file, pages: first...last).pages
                progress.reading(last, info.pages)
                first = last + 1
            }
            // Ligatures the text layer lost (`ve` for `five`) put back where a word list is installed.
            let layout = LigatureRepair.installed().map { $0.repaired(PDFLayout(pages: pages)) } ?? PDFLayout(pages: pages)
            let read = recognize(try pagesForOCR(file, layout: layout, mode: ocr), of: file, progress: progress)
            let result = PDFMarkdown.convert(layout, ocr: read)
            let name = String(file.split(separator: "/").last ?? Substring(file))
            let base = name.lowercased().hasSuffix(".pdf") ? String(name.dropLast(4)) : name
            let noteTitle = title ?? info.title.flatMap { $0.isEmpty ? nil : $0 } ?? result.firstHeading ?? base
            let plan: NoteCreation
            do {
                plan = try NoteCreation.plan("# " + noteTitle + "\n" + result.body, fields: [("deck", destination.deck), ("source", name), ("pages", String(info.pages))],
                                             tags: [], folder: destination.folder, vault: vault, created: now)
            } catch { throw AppError.importRefused("\(file): \(error)") }
            if let problem = ImportedFiles.plainNoteProblem(plan) {
                throw AppError.importRefused("\(file): the converted text would not read back as a plain note: \(problem)")
            }
            let (bytes, cards) = generate ? ImportedFiles.withGeneratedCards(path: plan.path, bytes: plan.bytes) : (plan.bytes, 0)
            return PDFImport(plan: plan, bytes: bytes, generatedCards: cards, pages: info.pages, result: result)
        } catch let error as AppError {
            throw error
        } catch {
            throw .importRefused("\(error)")
        }
    }

    /// The pages `mode` has read by OCR (auto: each page with little text rendered small in a
    /// temporary folder, its ink compared with its text layer).
    static func pagesForOCR(_ file: String, layout: PDFLayout, mode: PDFExtractor.OCRMode) throws(AppError) -> [Int] {
        guard mode == .auto else { return PDFExtractor.pagesForOCR(file, layout: layout, mode: mode, folder: "") }
        let scratch = try ScratchFolder("quire-ink")
        defer { scratch.remove() }
        return PDFExtractor.pagesForOCR(file, layout: layout, mode: mode, folder: scratch.path)
    }

    /// The text of `pages` read by OCR from their images, rendered in a temporary folder, one page
    /// per core; a page that cannot be read is said once and left out.
    static func recognize(_ pages: [Int], of file: String, progress: Progress) -> [Int: OCRText] {
        guard !pages.isEmpty, let scratch = try? ScratchFolder("quire-ocr") else { return [:] }
        defer { scratch.remove() }
        let results = ResultSlots<Result<OCRText, OCRText.Failure>>(count: pages.count)
        let done = AtomicCounter()
        let recognizing = progress.recognizing
        inParallelChunks(of: pages.count, chunk: 1, concurrency: nil) { range in
            for k in range {
                let own = scratch.path + "/\(k)"
                do {
                    try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: false)
                    results[k] = .success(try OCRText.recognize(try PDFExtractor.render(file, page: pages[k], into: own), scratch: own))
                } catch let error as OCRText.Failure {
                    results[k] = .failure(error)
                    // Without tesseract no page can be read: no other is started.
                    if error.description == OCRText.missing { return false }
                } catch {
                    results[k] = .failure(OCRText.Failure(description: "\(error)"))
                }
                try? FileManager.default.removeItem(atPath: own)
                recognizing(done.increment() + 1, pages.count)
            }
            return true
        }
        var out: [Int: OCRText] = [:]
        var said = false
        for (k, page) in pages.enumerated() {
            switch results.take(k) {
            case .success(let text)?: out[page] = text
            case .failure(let error)?:
                if !said { progress.warning(ImportedFiles.located(error.description, file: file) + "; such pages are left without text") }
                said = true
            case nil: break
            }
        }
        return out
    }
}
