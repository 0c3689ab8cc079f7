import QuireTerminal
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
        @Option(help: ArgumentHelp("The deck (A::B or A/B): its folder holds the note (with --to, the note names it).", valueName: "DECK"), completion: .custom(QueryCompletion.decks)) var deck: String?
        @Option(help: ArgumentHelp("The folder of the vault to write the note in.", valueName: "FOLDER")) var to: String?
        @Flag(help: "Also propose cards from the text read, written under ## Cards (as quire generate --write).") var generate = false
        @Argument(help: "The image files (PNG, JPEG, TIFF…).") var files: [String]

        func validate() throws { if files.isEmpty { throw ValidationError("give an image file") } }

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            var bar = ProgressBar("OCR", total: files.count, minimum: 2)
            var done = 0
            let imported = try ImageImport.read(files, into: ImportedFiles.Destination(to: to, deck: deck), vault: vault, title: title,
                                                generate: generate, now: options.now, read: { reading in
                let read = reading.coverage.map { ", \(Int(($0 * 100).rounded())) % of what looks like text read" } ?? ""
                Output.line("\(reading.file): \(Plural.counted(reading.words, "word"))\(read), mean confidence \(reading.meanConfidence) % "
                            + "(read \(reading.variant))")
                if let coverage = reading.coverage, coverage < ImageReading.coverageFloor {
                    Output.error("quire: warning: \(reading.file): only \(Int((coverage * 100).rounded())) % of what looks like text in it was read; "
                                 + "the rest is not in the note (a sharper, straighter photo reads better)")
                }
                done += 1
                bar.update(done)
            }, warning: { Output.error("quire: warning: " + $0) })
            try ImportCommand.write(imported.assets + [.note(imported.plan.path, imported.bytes)], to: vault)
            Output.line("wrote \(imported.plan.path) (\(Plural.counted(files.count, "image")), kept in assets/"
                        + (generate ? ", \(Plural.counted(imported.generatedCards, "card")) generated)" : ")"))
        }
    }
}
