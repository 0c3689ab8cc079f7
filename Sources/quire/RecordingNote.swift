import QuireIngest
import QuireSupport
import QuireApp
import Foundation
import Synchronization
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem
import QuireVault

/// A recording made into a note (`quire import audio|video`, `quire record`): its sound kept in
/// assets/ and linked, its transcript in sections with time anchors, live notes at the top.
struct RecordingNote {
    /// How the recording's sound is kept in assets/.
    enum Keeping {
        /// The file as it is (an audio file).
        case original
        /// Its sound as Opus in Ogg (a video's, without its pictures).
        case opus
    }

    var file: String
    var keeping: Keeping
    var title: String?
    var folder: String
    var engine: SpeechEngine
    /// Whether cards are proposed from the transcript too (`--generate`).
    var generate = false

    /// Transcribes the recording and writes the note and the kept sound, all or nothing.
    func write(to vault: Vault, now: Timestamp) throws {
        let scratch = try ScratchFolder("quire-speech")
        defer { scratch.remove() }
        let audio: SpeechRecognizer.Audio
        do { audio = try SpeechRecognizer.decode(file, into: scratch.path) } catch { throw CLIError("\(error.description); nothing written") }
        if audio.cut {
            Output.error("quire: warning: \(file): longer than \(SpeechRecognizer.maximumSeconds / 3600) hours; the rest is left out")
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
                do { return try FileIO().read(file).bytes } catch let error as FileIOError { throw CLIError("\(file): \(error.description); nothing written") }
            })
        case .opus:
            let out = scratch.path + "/sound.ogg"
            do { try SpeechRecognizer.opus(file, to: out) } catch { throw CLIError("\(error.description); nothing written") }
            let bytes: [UInt8]
            do { bytes = try FileIO().read(out).bytes } catch { throw CLIError("\(out): \(error.description); nothing written") }
            kept = (stem + ".ogg", { bytes })
        }
        let asset = ImportedFiles.assetPath(for: kept.name, in: vault)
        let assetName = String(asset.dropFirst("assets/".count))
        let minutes = max(1, Int(audio.seconds / 60))
        Output.error("Transcribing \(TimeAnchor.clock(Int(audio.seconds.rounded()))) of sound with \(engine.name)"
                     + (engine.isRough ? "" : " (this can take \(minutes == 1 ? "a minute" : "minutes"))") + "…")
        let bar = Mutex(ProgressBar("Transcribing", total: max(1, Int(audio.seconds)), minimum: 60))
        bar.withLock { $0.update(0) }
        let transcript: Transcript
        do {
            transcript = try SpeechRecognizer.transcribe(audio, engine: engine, in: scratch.path) { done in
                bar.withLock { $0.update(Int(done)) }
            }
        } catch { throw CLIError("\(error.description); nothing written") }
        let link = "Recording: [" + PDFMarkdown.safe(assetName) + "](<" + asset + ">)"
        let result = TranscriptMarkdown.convert(transcript, engine: engine, recording: link)
        let plan: NoteCreation
        do {
            plan = try NoteCreation.plan("# " + (title ?? (stem.isEmpty ? "Recording" : stem)) + "\n" + result.body,
                                         fields: [("source", name), ("duration", TimeAnchor.clock(Int(audio.seconds.rounded()))),
                                                  ("transcribed_by", engine.name)],
                                         tags: [], folder: folder, vault: vault, created: now)
        } catch { throw CLIError("\(error)") }
        if let problem = ImportedFiles.plainNoteProblem(plan) {
            throw CLIError("the transcript would not make a plain note: \(problem); nothing written")
        }
        let (bytes, cards) = generate ? ImportedFiles.withGeneratedCards(path: plan.path, bytes: plan.bytes) : (plan.bytes, 0)
        try Quire.ImportCommand.write([StagedFiles.File(asset, .file, bytes: kept.bytes), .note(plan.path, bytes)], to: vault)
        Output.line("wrote \(plan.path) (\(TimeAnchor.clock(Int(audio.seconds.rounded()))), \(Plural.counted(transcript.words.count, "word")), "
                    + "\(Plural.counted(result.sections, "section")), \(Plural.counted(result.liveNotes, "live note"))"
                    + (generate ? ", \(Plural.counted(cards, "card")) generated" : "") + "; the sound kept as \(asset))")
        if engine.isRough, !transcript.words.isEmpty {
            Output.line("  the transcript is rough (pocketsphinx); `quire model install whisper` (with pip install faster-whisper) "
                        + "makes faster-whisper the engine, which writes a far better one")
        }
    }
}
