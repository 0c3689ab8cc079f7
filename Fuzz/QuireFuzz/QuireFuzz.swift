// The parsers' fuzz targets: bytes from a vault, a log or the command line through each parser,
// which must neither crash nor hang, whatever the bytes (docs/SECURITY.md, "Fuzzing").
//
// Built two ways:
// - plainly (`swift build`): `QuireFuzz TARGET FILE…` runs files through a target, so the seed
//   corpus in Fuzz/corpus/TARGET/ is replayed by every test run;
// - with libFuzzer and AddressSanitizer (scripts/fuzz.sh): `-sanitize=fuzzer,address
//   -D QUIRE_FUZZER`, the target chosen by the QUIRE_FUZZ_TARGET variable, run through
//   libFuzzer's LLVMFuzzerRunDriver.
#if canImport(Glibc)
import Glibc
#endif
import QuireMarkdown
import QuireModel
import QuireSystem
import QuireIndex
import QuireInterchange
import QuireArchive
import QuireEmbedding
import QuireGeneration
import QuireIngest
import QuireParsing
import QuireReview
import QuireSupport
import QuireVault
@_spi(Testing) import QuireYAML

/// Writes a line to standard error.
func complain(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// The fuzz targets by name.
enum FuzzTarget: String, CaseIterable {
    /// Front matter: parsed, then edited (a tag added, a key set), as `quire tag` and `set` do.
    case frontmatter
    /// Front matter parsed through the fast readers and through libyaml alone, which must give
    /// the same tree with every mark, or the same error; a difference stops the run. Bytes that
    /// do not open front matter are taken as the YAML between the fences.
    case frontmatterDiff = "frontmatter-diff"
    /// A whole note: front matter, Markdown and card extraction, as the indexer reads it.
    case note
    /// A whole note read in `card_syntax: obsidian-sr` (the plugin's line parser and its cloze
    /// patterns, all three enabled), the input's first line taken as a cloze pattern too.
    case obsidian
    /// A review log file.
    case log
    /// `.quire/config.yaml`.
    case config
    /// A query as typed on the command line.
    case query
    /// A card's text rendered for the terminal.
    case render
    /// A CSV file read and planned into notes (`quire import csv`), as HTML when it starts with `#`.
    case csv
    /// An Anki field's HTML turned into Markdown, which must then be written as a card or refused.
    case html
    /// An Anki collection's database image (SQLite), read as a package's collection is: a damaged
    /// or crafted database must give an error, never a crash or a hang.
    case anki
    /// JSON text as Anki's collections hold it (note types, decks, media maps) and the Obsidian
    /// plugin's settings: read, and what was read written and read again to the same value.
    case json
    /// poppler's XML (`pdftohtml -xml`) laid out and converted into a note, as `quire import pdf` does.
    case pdfxml
    /// tesseract's TSV read, then merged into a page with a text line, as OCR of a PDF's page is.
    case ocrtsv
    /// A speech engine's words (the first byte picks pocketsphinx's or faster-whisper's runner's
    /// lines) read and written as a note.
    case transcript
    /// A safetensors file's header read, every tensor's range checked and its values scanned.
    case safetensors
    /// A language model's reply to a request for cards, held against a fixed note's sentences.
    case llmreply

    /// The sentences of a short note, for the replies of ``llmreply``.
    static let sentences: [SourceSentence] = {
        let bytes = Array("# Cells\n\nThe mitochondrion is the organelle that produces most of the cell's ATP. Its inner membrane is folded into **cristae**.\n".utf8)
        guard let note = NoteParser.parse(bytes, path: "cells.md").note else { return [] }
        return NoteProse.sentences(of: note, bytes: bytes)
    }()

    /// Runs the target on one input.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .frontmatter:
            if var editor = try? FrontMatterEditor(file: bytes) {
                try? editor.addToList("tags", "fuzz")
                try? editor.set("cycle", to: .scalar("weekly"))
                _ = editor.file
            }
        case .frontmatterDiff:
            let fence = Array("---".utf8)
            let file = bytes.starts(with: fence) ? bytes
                : fence + [0x0A] + bytes + (bytes.last == 0x0A ? [] : [0x0A]) + fence + [0x0A]
            if let difference = FrontMatter.fastPathDifference(file: file) {
                fatalError("the fast path and libyaml disagree: \(difference)")
            }
        case .note:
            _ = NoteParser.parse(bytes, path: "fuzz.md")
        case .obsidian:
            let firstLine = String(decoding: bytes.prefix { $0 != 0x0A }.prefix(256), as: UTF8.self)
            let patterns = ["==[123;;]answer[;;hint]==", "**[123;;]answer[;;hint]**", "{{[123;;]answer[;;hint]}}", firstLine]
            var json = #"{"settings": {"clozePatterns": ["#
            json += patterns.map { JSONValue.string($0).serialized() }.joined(separator: ",") + "]}}"
            let settings = ObsidianSRSettings.read(Array(json.utf8), path: "data.json").settings
            _ = NoteParser.parse(Array("#flashcards\n".utf8) + bytes, path: "fuzz.md", syntax: .obsidianSR(settings))
        case .log:
            _ = ReviewLog.parse(String(decoding: bytes, as: UTF8.self))
            // The statistics reader keeps what the event reader and the history keep.
            let events = ReviewLog.parse(bytes).events.filter { e in e.field("path").map { Vault.unsafeReason($0) == nil } ?? true }
            let history = ReviewHistory(events)
            let log = StatisticsLog(files: [bytes])
            let expected = history.events.keys.sorted().map { card in (card, (history.events[card] ?? []).map(\.time)) }
            let found = log.cards.indices.map { (log.cards[$0], log.events(ofCard: $0).map(\.time)) }
            if !expected.elementsEqual(found, by: { $0.0 == $1.0 && $0.1 == $1.1 }) {
                fatalError("the statistics reader and the event reader disagree")
            }
        case .config:
            _ = VaultConfig.parse(bytes, path: ".quire/config.yaml")
        case .query:
            _ = try? Query(parsing: String(decoding: bytes, as: UTF8.self))
        case .render:
            _ = MarkdownRenderer.ansi(String(decoding: bytes, as: UTF8.self), color: true, width: 60)
        case .csv:
            let (table, _) = CSVReader.read(bytes, path: "fuzz.csv")
            if let table {
                _ = CSVImport.plan(table, path: "fuzz.csv", options: .init(name: "fuzz", source: "fuzz.csv", created: Timestamp(milliseconds: 0)),
                                   existing: { _, _ in nil }, taken: { _ in false })
            }
        case .anki:
            if let db = try? SQLiteDatabase(bytes: bytes, name: "fuzz.anki2") {
                _ = try? AnkiPackage.read(db, format: .legacy21, name: "fuzz.anki2")
            }
        case .json:
            if let value = try? JSONValue(parsing: bytes) {
                let again = try? JSONValue(parsing: Array(value.serialized().utf8))
                // NaN is not JSON; a number that reads back differently is the one exception.
                if again != value, !value.serialized().contains("nan"), !value.serialized().contains("inf") {
                    fatalError("JSON read, written and read again differs")
                }
            }
        case .pdfxml:
            _ = PDFMarkdown.convert(PDFLayout(xml: bytes))
        case .ocrtsv:
            let read = OCRText(tsv: bytes)
            let line = PDFLayout.Line(top: 10, left: 10, width: 300, height: 12, size: 12, bold: false, text: "A line the text layer has")
            _ = PDFMarkdown.convert(PDFLayout(pages: [PDFLayout.Page(number: 1, height: 792, width: 612, lines: [line])]), ocr: [1: read])
        case .transcript:
            let rest = Array(bytes.dropFirst())
            let transcript = bytes.first.map { $0 & 1 == 0 } ?? true
                ? Transcript(pocketsphinx: rest, offset: 12, duration: 60) : Transcript(whisper: rest, duration: 60)
            _ = TranscriptMarkdown.convert(transcript, engine: .pocketsphinx, recording: "fuzz.wav")
        case .safetensors:
            if let file = try? Safetensors(bytes: bytes, path: "fuzz.safetensors") {
                for name in file.names { _ = try? file.tensor(name, shape: [1]) }
                _ = file.nonFiniteValue()
            }
        case .llmreply:
            _ = ModelCards.parse(String(decoding: bytes, as: UTF8.self), sentences: Self.sentences)
        case .html:
            let converted = HTMLToMarkdown.convert(String(decoding: bytes, as: UTF8.self)) { "assets/" + $0 }
            if converted.markdown.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }) {
                fatalError("the converter wrote a control character")
            }
            _ = try? CardWriter.write(CardDraft(.basic(question: "Q?", answer: converted.markdown)))
        }
    }
}

#if QUIRE_FUZZER
/// libFuzzer's driver (libFuzzer's own `main` is not linked: SwiftPM names the entry point).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// libFuzzer's entry point: one input through the target QUIRE_FUZZ_TARGET names.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let name = getenv("QUIRE_FUZZ_TARGET").map { String(cString: $0) } ?? "note"
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget(rawValue: name)?.run(bytes)
    return 0
}

/// Runs the target QUIRE_FUZZ_TARGET names under libFuzzer.
@main
enum Fuzzer {
    static func main() {
        let name = getenv("QUIRE_FUZZ_TARGET").map { String(cString: $0) } ?? "note"
        guard FuzzTarget(rawValue: name) != nil else {
            complain("QUIRE_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue))")
            exit(2)
        }
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
/// The corpus replayer.
@main
enum Replayer {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            complain("usage: QuireFuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE…")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            guard let (bytes, _) = try? FileIO().read(path) else {
                complain("\(path): cannot be read")
                exit(1)
            }
            target.run(bytes)
            count += 1
        }
        print("\(name): \(count) inputs, no crash")
    }
}
#endif
