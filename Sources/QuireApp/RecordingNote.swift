import QuireIngest
import QuireSupport
import Foundation
import Synchronization
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem
import QuireVault

/// A recording made into a note (`quire import audio|video`, `quire record`), for any front end:
/// its sound kept in assets/ and linked, its transcript in sections with time anchors, live notes
/// at the top; written all or nothing.
public struct RecordingNote {
    /// How the recording's sound is kept in assets/.
    public enum Keeping: Sendable {
        /// The file as it is (an audio file).
        case original
        /// Its sound as Opus in Ogg (a video's, without its pictures).
        case opus
    }

    public var file: String
    public var keeping: Keeping
    public var title: String?
    public var destination: ImportedFiles.Destination
    public var engine: SpeechEngine
    /// Whether cards are proposed from the transcript too (`--generate`).
    public var generate = false

    public init(file: String, keeping: Keeping, title: String?, destination: ImportedFiles.Destination, engine: SpeechEngine, generate: Bool = false) {
        self.file = file
        self.keeping = keeping
        self.title = title
        self.destination = destination
        self.engine = engine
        self.generate = generate
    }

    /// What a front end hears as the recording is made into a note.
    public struct Progress {
        /// A warning about the file (too long: the rest left out).
        public var warning: (String) -> Void = { _ in }
        /// Transcription starts: the sound's seconds.
        public var transcribing: (_ seconds: Double) -> Void = { _ in }
        /// Seconds of sound transcribed so far; called from several threads.
        public var transcribed: @Sendable (_ done: Double) -> Void = { _ in }
        /// Files written, of all (the staged write).
        public var writing: (Int) -> Void = { _ in }
        public init() {}
    }

    /// What was written.
    public struct Written: Sendable {
        public let path: String, asset: String
        public let seconds: Double
        public let words: Int, sections: Int, liveNotes: Int, generatedCards: Int
    }

    /// Transcribes the recording and writes the note and the kept sound, all or nothing.
    public func write(to vault: Vault, now: Timestamp, progress: Progress = Progress()) throws(AppError) -> Written {
        let scratch = try ScratchFolder("quire-speech")
        defer { scratch.remove() }
        let audio: SpeechRecognizer.Audio
        do { audio = try SpeechRecognizer.decode(file, into: scratch.path) } catch { throw AppError.importRefused("\(error.description); nothing written") }
        if audio.cut {
            progress.warning("\(file): longer than \(SpeechRecognizer.maximumSeconds / 3600) hours; the rest is left out")
        }
        // The sound kept: the file itself, or a video's sound as Opus.
        let name = String(file.split(separator: "/").last ?? Substring(file))
        // The title from the name: one line of printable text.
        let printable = name.unicodeScalars.map { $0.properties.generalCategory == .control || $0.value == 0x2028 || $0.value == 0x2029 ? " " : String($0) }
            .joined().split(separator: " ").joined(separator: " ")
        let stem = printable.contains(".") ? String(printable[..<(printable.lastIndex(of: ".") ?? printable.endIndex)]) : printable
        let kept: (name: String, bytes: () throws -> [UInt8])
        switch keeping {
        case .original:
            kept = (name, { [file] in
                do { return try FileIO().read(file).bytes } catch let error as FileIOError { throw AppError.importRefused("\(file): \(error.description); nothing written") }
            })
        case .opus:
            let out = scratch.path + "/sound.ogg"
            do { try SpeechRecognizer.opus(file, to: out) } catch { throw AppError.importRefused("\(error.description); nothing written") }
            let bytes: [UInt8]
            do { bytes = try FileIO().read(out).bytes } catch { throw AppError.importRefused("\(out): \(error.description); nothing written") }
            kept = (stem + ".ogg", { bytes })
        }
        let asset = ImportedFiles.assetPath(for: kept.name, in: vault)
        let assetName = String(asset.dropFirst("assets/".count))
        progress.transcribing(audio.seconds)
        let transcript: Transcript
        do {
            transcript = try SpeechRecognizer.transcribe(audio, engine: engine, in: scratch.path, progress: progress.transcribed)
        } catch { throw AppError.importRefused("\(error.description); nothing written") }
        let link = "Recording: [" + PDFMarkdown.safe(assetName) + "](<" + asset + ">)"
        let result = TranscriptMarkdown.convert(transcript, engine: engine, recording: link)
        let plan: NoteCreation
        do {
            plan = try NoteCreation.plan("# " + (title ?? (stem.isEmpty ? "Recording" : stem)) + "\n" + result.body,
                                         fields: [("deck", destination.deck), ("source", name), ("duration", TimeAnchor.clock(Int(audio.seconds.rounded()))),
                                                  ("transcribed_by", engine.name)],
                                         tags: [], folder: destination.folder, vault: vault, created: now)
        } catch { throw AppError.importRefused("\(error)") }
        if let problem = ImportedFiles.plainNoteProblem(plan) {
            throw AppError.importRefused("the transcript would not make a plain note: \(problem); nothing written")
        }
        let (bytes, cards) = generate ? ImportedFiles.withGeneratedCards(path: plan.path, bytes: plan.bytes) : (plan.bytes, 0)
        try ImportedFiles.write([StagedFiles.File(asset, .file, bytes: kept.bytes), .note(plan.path, bytes)], to: vault, progress: progress.writing)
        return Written(path: plan.path, asset: asset, seconds: audio.seconds, words: transcript.words.count, sections: result.sections,
                       liveNotes: result.liveNotes, generatedCards: cards)
    }
}
