import QuireModel
import QuireSystem

/// Runs poppler's tools (Debian's `poppler-utils`) on a PDF, an untrusted file: argument arrays
/// only, never a shell, each run under a time and an output limit. Text comes from
/// `pdftohtml -xml`, some pages at a time, so a long book streams with bounded memory.
public enum PDFExtractor {
    /// Why a PDF could not be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// What `pdfinfo` says of the file.
    public struct Info: Sendable, Equatable {
        public var pages: Int
        public var title: String?
    }

    /// The output one run of pdftohtml may write (a page's XML is kilobytes).
    static let outputLimit = 64 << 20
    /// The most pages a PDF may declare (checked before any page is read): a long textbook has
    /// 1,500.
    public static let maximumPages = 10_000

    /// Pages converted per run of `pdftohtml`.
    public static let pagesPerRun = 20

    /// The message for a missing tool.
    static let missing = "poppler's tools are not installed (Debian: apt-get install poppler-utils)"

    /// The file's page count and title; an encrypted, damaged or non-PDF file is a failure.
    public static func info(_ path: String) throws(Failure) -> Info {
        if let refusal = HelperBudget.refusal(path) { throw Failure(description: refusal) }
        let run = ChildProcess.run(["pdfinfo", "-enc", "UTF-8", "--", ChildProcess.fileArgument(path)],
                                   limits: HelperBudget.pdf(fileBytes: HelperBudget.size(of: path), outputBytes: 1 << 20))
        if run.status == -1 { throw Failure(description: missing) }
        let text = String(decoding: run.output, as: UTF8.self)
        guard run.status == 0 else {
            let reason = Self.lastLine(run.errorOutput) ?? "pdfinfo failed"
            throw Failure(description: "\(path): not a readable PDF (\(reason))")
        }
        var pages = 0
        var title: String?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("Pages:") { pages = Int(line.dropFirst(6).trimmingSpaces()) ?? 0 }
            if line.hasPrefix("Title:") { title = line.dropFirst(6).trimmingSpaces().nilIfEmpty }
            if line.hasPrefix("Encrypted:"), line.dropFirst(10).trimmingSpaces().hasPrefix("yes") {
                throw Failure(description: "\(path): the PDF is encrypted; decrypt it first (for example qpdf --decrypt)")
            }
        }
        guard pages > 0 else { throw Failure(description: "\(path): the PDF has no pages") }
        guard pages <= maximumPages else {
            throw Failure(description: "\(path): the PDF declares \(pages) pages, more than the \(maximumPages) Quire imports; split it first (for example qpdf --pages)")
        }
        return Info(pages: pages, title: title)
    }

    /// The tool's last line of errors (the most telling), without control characters, at most 200
    /// characters.
    static func lastLine(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.suffix(4096), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).last else { return nil }
        return String(String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(200))
    }

    /// Renders page `page` as a 300 dpi greyscale PNG into `folder` (for OCR); returns its path.
    public static func render(_ path: String, page: Int, into folder: String) throws(Failure) -> String {
        let prefix = folder + "/page"
        let run = ChildProcess.run(["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", "-f", String(page), "-l", String(page),
                                    "--", ChildProcess.fileArgument(path), prefix],
                                   limits: HelperBudget.pdf(fileBytes: HelperBudget.size(of: path), outputBytes: 1 << 20))
        if run.status == -1 { throw Failure(description: missing) }
        guard run.status == 0 else {
            throw Failure(description: "\(path): page \(page) could not be rendered (\(lastLine(run.errorOutput) ?? "pdftoppm failed"))")
        }
        return prefix + ".png"
    }

    /// Pages `first...last` laid out.
    public static func layout(_ path: String, pages: ClosedRange<Int>) throws(Failure) -> PDFLayout {
        let run = ChildProcess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", "-enc", "UTF-8", "-nodrm",
                                    "-f", String(pages.lowerBound), "-l", String(pages.upperBound), "--", ChildProcess.fileArgument(path)],
                                   limits: HelperBudget.pdf(fileBytes: HelperBudget.size(of: path), outputBytes: outputLimit))
        if run.status == -1 { throw Failure(description: missing) }
        guard run.status == 0 else {
            let reason = Self.lastLine(run.errorOutput) ?? "pdftohtml failed"
            throw Failure(description: "\(path): pages \(pages.lowerBound)–\(pages.upperBound) could not be read (\(reason))")
        }
        return PDFLayout(xml: run.output)
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
