import QuireSystem

/// Text read from an image by tesseract (Debian: `tesseract-ocr` with `tesseract-ocr-eng`), word by
/// word with its confidence, grouped into paragraphs and lines as tesseract found them.
public struct OCRText: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        public var text: String
        /// Tesseract's confidence, 0–100.
        public var confidence: Double
        /// Where the word is in the image, in pixels from its top left corner.
        public var left = 0.0, top = 0.0, width = 0.0, height = 0.0

        public init(text: String, confidence: Double, left: Double = 0, top: Double = 0, width: Double = 0, height: Double = 0) {
            self.text = text
            self.confidence = confidence
            self.left = left
            self.top = top
            self.width = width
            self.height = height
        }
    }

    /// Paragraphs, each a list of lines of words, in reading order.
    public var paragraphs: [[[Word]]]
    /// The image's size in pixels (tesseract's page row), 0 when unknown.
    public var imageWidth = 0.0, imageHeight = 0.0

    /// Words below this confidence are marked uncertain in a note.
    public static let uncertain = 60.0

    public init(paragraphs: [[[Word]]]) { self.paragraphs = paragraphs }

    /// Every word.
    public var words: [Word] { paragraphs.flatMap { $0.flatMap { $0 } } }

    /// The mean confidence of the words (0 without words).
    public var meanConfidence: Double { Self.meanConfidence(of: words) }

    /// The mean confidence of `words` (0 without words).
    public static func meanConfidence(of words: [Word]) -> Double {
        words.isEmpty ? 0 : words.reduce(0) { $0 + $1.confidence } / Double(words.count)
    }

    /// Reads tesseract's TSV output (level, page, block, paragraph, line, word, box, confidence,
    /// text); rows that are not words, or malformed, are skipped.
    public init(tsv bytes: [UInt8]) {
        var paragraphs: [[[Word]]] = []
        var lastParagraph: (Int, Int)?, lastLine: Int?
        for row in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let f = row.split(separator: "\t", omittingEmptySubsequences: false)
            // Boxes within an image's possible size, confidences within tesseract's 0–100: nothing
            // read from the rows makes a figure that overflows later (fuzzing found both).
            let box = f.count >= 10 ? f[6..<10].map { Double($0).flatMap { $0.isFinite && $0 >= 0 ? min($0, 1e6) : nil } ?? 0 } : [0, 0, 0, 0]
            if f.count >= 10, f[0] == "1" {
                imageWidth = box[2]
                imageHeight = box[3]
                continue
            }
            guard f.count >= 12, f[0] == "5", let block = Int(f[2]), let paragraph = Int(f[3]), let line = Int(f[4]),
                  let read = Double(f[10]), read.isFinite, read >= 0 else { continue }
            let confidence = min(100, read)
            let text = String(f[11...].joined(separator: "\t")).filter { !$0.isWhitespace || $0 == " " }
            guard !text.isEmpty else { continue }
            if lastParagraph.map({ $0 != (block, paragraph) }) ?? true {
                paragraphs.append([[]])
                lastParagraph = (block, paragraph)
                lastLine = line
            } else if lastLine != line {
                paragraphs[paragraphs.count - 1].append([])
                lastLine = line
            }
            paragraphs[paragraphs.count - 1][paragraphs[paragraphs.count - 1].count - 1].append(Word(text: text, confidence: confidence,
                                                                                                 left: box[0], top: box[1], width: box[2], height: box[3]))
        }
        self.paragraphs = paragraphs
    }

    /// The text as Markdown paragraphs: lines joined (a word hyphenated at a line's end joined
    /// back), every word escaped as PDF text is, an uncertain word followed by `(?)`.
    /// A line opened by a bullet that tesseract read as a letter or a sign (`e`, `«`, `°`) before
    /// a capital is a list item of its own (`- …`); the lines after it, up to the next such line,
    /// are its wrapped lines.
    public var markdown: String {
        paragraphs.map { lines in
            var blocks: [(text: String, item: Bool)] = []
            for var line in lines where !line.isEmpty {
                let item = line.count >= 3 && PDFMarkdown.bulletMisreads.contains(line[0].text)
                    && line[1].text.first.map { $0.isUppercase || $0.isNumber } == true
                if item { line.removeFirst() }
                let text = line.map { PDFMarkdown.safe($0.text) + ($0.confidence < Self.uncertain ? " (?)" : "") }.joined(separator: " ")
                if item || blocks.isEmpty {
                    blocks.append((item ? "- " + text : text, item))
                } else {
                    PDFMarkdown.append(line: text, to: &blocks[blocks.count - 1].text)
                }
            }
            // Items one after another make one list; a paragraph after an item is one of its own.
            var out = ""
            for (k, block) in blocks.enumerated() {
                if k > 0 { out += block.item ? "\n" : "\n\n" }
                out += block.text
            }
            return out
        }.filter { $0.contains { !$0.isWhitespace } }.joined(separator: "\n\n")
    }

    /// Why an image could not be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The message for a missing tesseract.
    public static let missing = "tesseract is not installed (Debian: apt-get install tesseract-ocr tesseract-ocr-eng)"

    /// Reads the image at `path` (PNG, JPEG, TIFF…) with tesseract, in English, under a time and an
    /// output limit.
    /// `scratch`: a folder of the caller's for the program's own temporary files.
    public static func recognize(_ path: String, scratch: String? = nil) throws(Failure) -> OCRText {
        // One thread per run (pages are read side by side instead): tesseract's OpenMP threads
        // cost five times the time on one page here (10.7 s against 2.2 s, docs/BENCHMARKS.md).
        let pixels = try ImageSize.checked(path)
        let run = ChildProcess.run(["tesseract", ChildProcess.fileArgument(path), "stdout", "-l", "eng", "--psm", "3", "tsv"],
                                   limits: HelperBudget.image(pixels: pixels, seconds: 300, outputBytes: 32 << 20),
                                   environment: ["OMP_THREAD_LIMIT": "1"].merging(HelperBudget.temporaryFiles(in: scratch)) { a, _ in a })
        if run.status == -1 { throw Failure(description: missing) }
        guard run.status == 0 else {
            throw Failure(description: "\(path): tesseract could not read it (\(PDFExtractor.lastLine(run.errorOutput) ?? "status \(run.status)"))")
        }
        return OCRText(tsv: run.output)
    }
}
