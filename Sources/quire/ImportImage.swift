import QuireIngest
import QuireSupport
import QuireApp
import Foundation
import ArgumentParser
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem

extension Quire {
    /// `quire import image FILE… [--title T] [--deck D] [--to FOLDER]`.
    struct ImportImage: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "image",
            abstract: "Make one note of slides or whiteboard photos: each image kept in assets/ and its text read by OCR.",
            discussion: """
                Each image is read by tesseract (Debian: tesseract-ocr tesseract-ocr-eng) as it is and prepared \
                with ImageMagick (straightened and cleaned, thresholded against uneven light, enlarged; Debian: \
                imagemagick), and the reading with the most confident words is kept: preparing never makes a \
                photo read worse. How much of what looks like text was read is said, with a warning when it is \
                under half. The note has one section per image, in the order given: the image (copied into \
                assets/), the mean confidence and the share read, then the text, a word tesseract is unsure of \
                followed by (?). Nothing is written when an image cannot be read.

                Example: quire import image board.jpg --deck Chemistry
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: ArgumentHelp("The note's title (default: the first image's name).", valueName: "TITLE")) var title: String?
        @Option(help: ArgumentHelp("The deck (A::B or A/B): its folder holds the note.", valueName: "DECK"), completion: .custom(QueryCompletion.decks)) var deck: String?
        @Option(help: ArgumentHelp("The folder of the vault to write the note in.", valueName: "FOLDER")) var to: String?
        @Flag(help: "Also propose cards from the text read, written under ## Cards (as quire generate --write).") var generate = false
        @Argument(help: "The image files (PNG, JPEG, TIFF…).") var files: [String]

        func validate() throws { if files.isEmpty { throw ValidationError("give an image file") } }

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            let folder = ImportedFiles.folder(to: to, deck: deck)
            let scratch = try ScratchFolder("quire-image")
            defer { scratch.remove() }
            var body = ""
            var staged: [StagedFiles.File] = []
            var assets = Set<String>()
            var warned = false
            var bar = ProgressBar("OCR", total: files.count, minimum: 2)
            for (k, file) in files.enumerated() {
                let bytes: [UInt8]
                do { bytes = try FileIO().read(file).bytes } catch { throw CLIError("\(file): \(error.description); nothing written") }
                let name = ImportedFiles.safeName(String(file.split(separator: "/").last ?? Substring(file)))
                let asset = ImportedFiles.assetPath(for: name, in: vault, avoiding: assets)
                assets.insert(asset)
                staged.append(StagedFiles.File(asset, .file) { bytes })
                let reading: ImageReading
                do { reading = try ImageReading.read(file, in: scratch.path) } catch {
                    throw CLIError("\(error.description); nothing written")
                }
                if let problem = reading.problem, !warned { Output.error("quire: warning: \(problem)"); warned = true }
                let text = reading.text
                let read = reading.coverage.map { ", \(Int(($0 * 100).rounded())) % of what looks like text read" } ?? ""
                body += "\n## " + PDFMarkdown.safe(name) + "\n\n![" + PDFMarkdown.safe(name) + "](<" + asset + ">)\n\n"
                if text.words.isEmpty {
                    body += "*No text was found in this image.*\n"
                } else {
                    body += "*Read by OCR (mean confidence \(Int(text.meanConfidence.rounded())) %"
                        + (reading.coverage.map { ", \(Int(($0 * 100).rounded())) % of what looks like text read" } ?? "") + ")"
                        + (text.words.contains { $0.confidence < OCRText.uncertain } ? "; words followed by (?) are uncertain" : "") + ".*\n\n"
                        + text.markdown + "\n"
                }
                Output.line("\(file): \(Plural.counted(text.words.count, "word"))\(read), mean confidence \(Int(text.meanConfidence.rounded())) % "
                            + "(read \(reading.variant))")
                if let coverage = reading.coverage, coverage < ImageReading.coverageFloor {
                    Output.error("quire: warning: \(file): only \(Int((coverage * 100).rounded())) % of what looks like text in it was read; "
                                 + "the rest is not in the note (a sharper, straighter photo reads better)")
                }
                bar.update(k + 1)
            }
            let first = String(files[0].split(separator: "/").last ?? Substring(files[0]))
            let noteTitle = title ?? (first.contains(".") ? String(first[..<(first.lastIndex(of: ".") ?? first.endIndex)]) : first)
            let plan: NoteCreation
            do {
                plan = try NoteCreation.plan("# " + noteTitle + "\n" + body, fields: [("source", files.map { String($0.split(separator: "/").last ?? "") }.joined(separator: ", "))],
                                             tags: [], folder: folder, vault: vault, created: options.now)
            } catch { throw CLIError("\(error)") }
            if let problem = ImportedFiles.plainNoteProblem(plan) {
                throw CLIError("the text read would not make a plain note: \(problem); nothing written")
            }
            let (bytes, cards) = generate ? ImportedFiles.withGeneratedCards(path: plan.path, bytes: plan.bytes) : (plan.bytes, 0)
            try ImportCommand.write(staged + [.note(plan.path, bytes)], to: vault)
            Output.line("wrote \(plan.path) (\(Plural.counted(files.count, "image")), kept in assets/" + (generate ? ", \(Plural.counted(cards, "card")) generated)" : ")"))
        }
    }
}
