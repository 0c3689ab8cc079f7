import QuireIngest
import QuireInterchange
import QuireModel
import QuireReview
import QuireSystem
import QuireVault

/// Photos and slides read by OCR into one new note (`quire import image`), for any front end:
/// each image kept in assets/, under a heading of its name, its text read as it is and prepared
/// three ways with the most confident reading kept, saying how sure the reading is and how much
/// of what looks like text it covers. Nothing is written here.
public struct ImageImport {
    /// The note planned, its bytes (with `--generate`, with its proposed cards), and how many
    /// cards were added.
    public let plan: NoteCreation
    public let bytes: [UInt8], generatedCards: Int
    /// The images, staged for assets/.
    public let assets: [StagedFiles.File]

    /// How one image was read.
    public struct Reading {
        public let file: String
        public let words: Int
        /// The share of what looks like text that was read, when it can be told.
        public let coverage: Double?
        public let meanConfidence: Int
        /// Which preparation gave the reading kept.
        public let variant: String
    }

    /// Reads `files` into a note at `destination` in `vault`, created at `now`, titled `title` (else
    /// the first file's name); `read` hears each image as it is read, `warning` a problem with the
    /// OCR (said once). An unreadable image, or text that would not read back as a note, is thrown.
    public static func read(_ files: [String], into destination: ImportedFiles.Destination, vault: Vault, title: String?, generate: Bool, now: Timestamp,
                            read: (Reading) -> Void, warning: (String) -> Void) throws(AppError) -> ImageImport {
        let scratch = try ScratchFolder("quire-image")
        defer { scratch.remove() }
        var body = ""
        var staged: [StagedFiles.File] = []
        var assets = Set<String>()
        var warned = false
        for file in files {
            let bytes: [UInt8]
            do { bytes = try FileIO().read(file).bytes } catch {
                throw .importRefused(ImportedFiles.located(error.description, file: file) + "; nothing written")
            }
            let name = ImportedFiles.safeName(String(file.split(separator: "/").last ?? Substring(file)))
            let asset = ImportedFiles.assetPath(for: name, in: vault, avoiding: assets)
            assets.insert(asset)
            staged.append(StagedFiles.File(asset, .file) { bytes })
            let reading: ImageReading
            do { reading = try ImageReading.read(file, in: scratch.path) } catch { throw .importRefused("\(error.description); nothing written") }
            if let problem = reading.problem, !warned { warning(problem); warned = true }
            let text = reading.text
            body += "\n## " + PDFMarkdown.safe(name) + "\n\n![" + PDFMarkdown.safe(name) + "](<" + asset + ">)\n\n"
            if text.words.isEmpty {
                body += "*No text was found in this image.*\n"
            } else {
                body += "*Read by OCR (mean confidence \(Int(text.meanConfidence.rounded())) %"
                    + (reading.coverage.map { ", \(Int(($0 * 100).rounded())) % of what looks like text read" } ?? "") + ")"
                    + (text.words.contains { $0.confidence < OCRText.uncertain } ? "; words followed by (?) are uncertain" : "") + ".*\n\n"
                    + text.markdown + "\n"
            }
            read(Reading(file: file, words: text.words.count, coverage: reading.coverage, meanConfidence: Int(text.meanConfidence.rounded()),
                         variant: "\(reading.variant)"))
        }
        let first = String(files.first?.split(separator: "/").last ?? "")
        let noteTitle = title ?? (first.contains(".") ? String(first[..<(first.lastIndex(of: ".") ?? first.endIndex)]) : first)
        let plan: NoteCreation
        do {
            plan = try NoteCreation.plan("# " + noteTitle + "\n" + body, fields: [("deck", destination.deck), ("source", files.map { String($0.split(separator: "/").last ?? "") }.joined(separator: ", "))],
                                         tags: [], folder: destination.folder, vault: vault, created: now)
        } catch { throw .importRefused("\(error)") }
        if let problem = ImportedFiles.plainNoteProblem(plan) {
            throw .importRefused("the text read would not make a plain note: \(problem); nothing written")
        }
        let (bytes, cards) = generate ? ImportedFiles.withGeneratedCards(path: plan.path, bytes: plan.bytes) : (plan.bytes, 0)
        return ImageImport(plan: plan, bytes: bytes, generatedCards: cards, assets: staged)
    }
}
